/**
 * The image types Photodrop keeps, told by a file's first bytes (its name and declared type are
 * never trusted). Shared: the server decides by it, and the web app refuses other files before
 * sending them. Plain code without Node or browser APIs, so both can import it.
 */
export interface ImageType {
  mimeType: "image/jpeg" | "image/png" | "image/gif" | "image/webp";
  extension: "jpg" | "png" | "gif" | "webp";
}

/** How many leading bytes `imageTypeOf` needs. */
export const IMAGE_SIGNATURE_BYTES = 12;

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

export function imageTypeOf(head: Uint8Array): ImageType | undefined {
  const ascii = (from: number, to: number) => String.fromCharCode(...head.subarray(from, to));
  if (head.length >= 3 && head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff)
    return { mimeType: "image/jpeg", extension: "jpg" };
  if (head.length >= 8 && PNG_SIGNATURE.every((byte, i) => head[i] === byte))
    return { mimeType: "image/png", extension: "png" };
  if (ascii(0, 6) === "GIF87a" || ascii(0, 6) === "GIF89a") return { mimeType: "image/gif", extension: "gif" };
  if (ascii(0, 4) === "RIFF" && ascii(8, 12) === "WEBP") return { mimeType: "image/webp", extension: "webp" };
  return undefined;
}

/** File-name extensions of those types, as the drop zone and the file picker accept them. */
export const IMAGE_EXTENSIONS: Record<ImageType["mimeType"], string[]> = {
  "image/jpeg": [".jpg", ".jpeg"],
  "image/png": [".png"],
  "image/gif": [".gif"],
  "image/webp": [".webp"],
};
