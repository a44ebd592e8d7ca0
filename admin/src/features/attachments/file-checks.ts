import { IMAGE_EXTENSIONS, IMAGE_SIGNATURE_BYTES, imageTypeOf } from "../../../../api/image-types";
import { formatFileSize } from "../../lib/format";

export const ONLY_IMAGES = "Unsupported file type: only JPEG, PNG, GIF and WebP images";
export const NOT_AN_IMAGE = "Unsupported file type: the file's content is not a JPEG, PNG, GIF or WebP image";
export const EMPTY_FILE = "The file is empty";

const IMAGE_NAME = new RegExp(`(${Object.values(IMAGE_EXTENSIONS).flat().join("|").replaceAll(".", "\\.")})$`, "i");

/** What the drop zone and the file picker offer (by type and by name). */
export const ACCEPTED_FILES = IMAGE_EXTENSIONS;

export const tooLarge = (size: number, limit: number) =>
  `File too large: ${formatFileSize(size)}, over the ${formatFileSize(limit)} limit`;

/**
 * Why the server would refuse a file, told before any byte is sent from its name's extension and
 * its size against the server's limit; null when those are fine.
 */
export function refusalByName(file: File, maxUploadBytes: number): string | null {
  if (!IMAGE_NAME.test(file.name)) return ONLY_IMAGES;
  if (file.size === 0) return EMPTY_FILE;
  if (file.size > maxUploadBytes) return tooLarge(file.size, maxUploadBytes);
  return null;
}

/** Why the server would refuse a file's content, told from its first bytes (the server's own signatures). */
export async function refusalByContent(file: File): Promise<string | null> {
  const head = new Uint8Array(await file.slice(0, IMAGE_SIGNATURE_BYTES).arrayBuffer());
  return imageTypeOf(head) ? null : NOT_AN_IMAGE;
}
