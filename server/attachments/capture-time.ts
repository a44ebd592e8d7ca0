import exifReader from "exif-reader";
import sharp from "sharp";

/** Bytes read from the start of a stored photo to find its EXIF (a JPEG's APP1 is at most 64 KiB). */
export const EXIF_HEAD_BYTES = 256 * 1024;

const OFFSET = /^([+-])(\d{2}):?(\d{2})$/;

/**
 * The UTC time (ISO) a photo was taken, from its EXIF DateTimeOriginal and OffsetTimeOriginal;
 * without an offset the camera's clock is taken as it reads. Null when there is none or it is unreadable.
 */
export function captureTimeFromExif(exif: Buffer | undefined): string | null {
  if (!exif) return null;
  try {
    const photo = exifReader(exif).Photo;
    const taken = photo?.DateTimeOriginal;
    if (!(taken instanceof Date) || Number.isNaN(taken.getTime())) return null;
    const offset = OFFSET.exec(String(photo?.OffsetTimeOriginal ?? "").trim());
    const offsetMinutes = offset ? (offset[1] === "-" ? -1 : 1) * (Number(offset[2]) * 60 + Number(offset[3])) : 0;
    const utc = new Date(taken.getTime() - offsetMinutes * 60_000);
    const year = utc.getUTCFullYear();
    return year >= 1000 && year <= 9999 ? utc.toISOString() : null;
  } catch {
    return null;
  }
}

/** A JPEG's EXIF segment ("Exif\0\0" and the TIFF data), found by walking its markers. */
function jpegExif(head: Buffer): Buffer | undefined {
  if (head.length < 4 || head[0] !== 0xff || head[1] !== 0xd8) return undefined;
  let at = 2;
  while (at + 4 <= head.length && head[at] === 0xff) {
    const marker = head[at + 1];
    if (marker === 0xd8 || (marker >= 0xd0 && marker <= 0xd7) || marker === 0x01 || marker === 0xff) {
      at += marker === 0xff ? 1 : 2;
      continue;
    }
    if (marker === 0xda || marker === 0xd9) return undefined;
    const length = head.readUInt16BE(at + 2);
    const body = head.subarray(at + 4, at + 2 + length);
    if (marker === 0xe1 && body.subarray(0, 6).toString("latin1") === "Exif\0\0") return body;
    at += 2 + length;
  }
  return undefined;
}

function isJpeg(head: Buffer): boolean {
  return head.length >= 2 && head[0] === 0xff && head[1] === 0xd8;
}

/**
 * The capture time in the first bytes (EXIF_HEAD_BYTES) of a stored photo: a JPEG's markers are
 * walked; other formats are asked of sharp. Null when none is found. (An upload's is read from the
 * header its check already parsed: prepareImage.)
 */
export async function captureTimeOf(head: Buffer): Promise<string | null> {
  if (isJpeg(head)) return captureTimeFromExif(jpegExif(head));
  const meta = await sharp(head)
    .metadata()
    .catch(() => undefined);
  return captureTimeFromExif(meta?.exif);
}
