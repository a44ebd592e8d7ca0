import crypto from "node:crypto";
import fs from "node:fs";
import fsp from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import sharp, { type Metadata } from "sharp";
import type { Config } from "../config";
import { HttpError, InsufficientStorageError, UnsupportedMediaTypeError } from "../http/errors";
import { isDiskFull } from "./disk-full";
import { endsWithWholeScan } from "./jpeg-structure";
import { removeQuietly, uploadPath, uploadsTempRoot } from "./paths";
import { Semaphore } from "./semaphore";
import { IMAGE_SIGNATURE_BYTES, imageTypeOf, type ImageType } from "../../api/image-types";

// Every image is decoded once and never again; libvips' operation cache would only hold memory.
sharp.cache(false);

export const THUMBNAIL_SIZE = 400;

/**
 * Decoding costs time and memory by pixel count, not file size: a few KiB of PNG can claim 256 MP.
 * This cap still admits the largest camera photos (a 151 MP Phase One IQ4 is 14204 × 10652).
 */
export const MAX_IMAGE_PIXELS = 160_000_000;
export const IMAGE_TOO_LARGE = `Image has more than ${MAX_IMAGE_PIXELS / 1_000_000} megapixels`;
export const IMAGE_TOO_LARGE_TO_PROCESS = "Image is too large to process";
export const IMAGE_DAMAGED = "Image is damaged or incomplete";

/** A checked image with its thumbnail, both still in the temp folder; a proven-whole JPEG's thumbnail comes later. */
export interface PreparedImage {
  file: string;
  thumbnailFile: string | null;
  mimeType: string;
  extension: string;
  size: number;
  width: number;
  height: number;
  checksum: string;
}

/** Files of an image in their final place, named by keys relative to UPLOADS_DIR. */
export interface StoredImage extends Omit<PreparedImage, "file" | "thumbnailFile" | "extension"> {
  storageKey: string;
  thumbnailKey: string | null;
}

async function readHead(file: string, length: number): Promise<Buffer> {
  const handle = await fsp.open(file, "r");
  try {
    const buffer = Buffer.alloc(length);
    const { bytesRead } = await handle.read(buffer, 0, length, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

/** The type told by the file's own first bytes; its name and declared type are never trusted. */
export async function detectImageType(file: string): Promise<ImageType | undefined> {
  return imageTypeOf(await readHead(file, IMAGE_SIGNATURE_BYTES));
}

export async function sha256OfFile(file: string): Promise<string> {
  const hash = crypto.createHash("sha256");
  await pipeline(fs.createReadStream(file), hash);
  return hash.digest("hex");
}

/** How much memory decoding an image for its check and thumbnail takes, from its header alone. */
export function decodeBytes(
  meta: Pick<Metadata, "width" | "height" | "channels" | "depth" | "pages" | "format" | "isProgressive">,
): number {
  const bytesPerSample: Record<string, number> = { ushort: 2, short: 2, uint: 4, int: 4, float: 4, double: 8 };
  const fullFrame =
    meta.width * meta.height * (meta.channels ?? 4) * (bytesPerSample[meta.depth ?? ""] ?? 1) * (meta.pages ?? 1);
  // A baseline JPEG is decoded at an eighth of each side for the thumbnail (libjpeg's scaled
  // decoding still reads every byte); progressive JPEGs, interlaced PNGs and the rest hold it all.
  if (meta.format === "jpeg" && !meta.isProgressive) return fullFrame / 64;
  return fullFrame;
}

/**
 * At most one decode per core, and together within one decode budget, so three images each just
 * under MAX_DECODE_BYTES decode one after another: an upload beyond waits its turn with its bytes
 * already on disk. One queue per budget (a process has one; tests run several).
 */
const decodeQueues = new Map<number, Semaphore>();
function decodeQueue(maxDecodeBytes: number): Semaphore {
  let queue = decodeQueues.get(maxDecodeBytes);
  if (!queue) decodeQueues.set(maxDecodeBytes, (queue = new Semaphore(os.availableParallelism(), maxDecodeBytes)));
  return queue;
}

/** The header, read without decoding (sharp's own pixel limit would refuse with no reason given). */
async function readHeader(file: string): Promise<Metadata> {
  return sharp(file, { limitInputPixels: false })
    .metadata()
    .catch(() => {
      throw new UnsupportedMediaTypeError(IMAGE_DAMAGED);
    });
}

/** Refuses, with its reason, an image too large to decode; answers the memory its decode takes. */
function decodeBytesWithinLimits(meta: Metadata, maxDecodeBytes: number): number {
  if (meta.width * meta.height > MAX_IMAGE_PIXELS) throw new UnsupportedMediaTypeError(IMAGE_TOO_LARGE);
  const bytes = decodeBytes(meta);
  if (bytes > maxDecodeBytes) throw new UnsupportedMediaTypeError(IMAGE_TOO_LARGE_TO_PROCESS);
  return bytes;
}

/**
 * Whether a baseline JPEG is proven whole without decoding all of it: its one scan runs on to the
 * end-of-image marker (so it was not cut short) and its first rows decode (so its tables are
 * sound). A decode of such a file with `failOn: "error"` refuses nothing more: damage inside the
 * scan data is only ever a libjpeg warning (bench/README.md has the experiment).
 */
async function provenWholeJpeg(file: string, meta: Metadata): Promise<boolean> {
  if (meta.format !== "jpeg" || meta.isProgressive || !(await endsWithWholeScan(file))) return false;
  try {
    await sharp(file, { failOn: "error", limitInputPixels: MAX_IMAGE_PIXELS, sequentialRead: true })
      .extract({ left: 0, top: 0, width: meta.width, height: Math.min(16, meta.height) })
      .raw()
      .toBuffer();
    return true;
  } catch {
    return false;
  }
}

/**
 * Checks that a received file is a whole JPEG, PNG, GIF or WebP image, refusing a truncated or
 * corrupt one with the reason staff can act on. Its thumbnail is rendered beside it in the same
 * pass, by a decode that reads every byte, unless it is a baseline JPEG proven whole without that
 * decode: it is then accepted with no thumbnail yet (`renderStoredThumbnail` makes it later).
 */
export async function prepareImage(
  file: string,
  maxDecodeBytes: number,
  knownChecksum?: string,
): Promise<PreparedImage> {
  const type = await detectImageType(file);
  if (!type) throw new UnsupportedMediaTypeError();
  let thumbnailFile: string | null = `${file}.thumb.webp`;
  try {
    const meta = await readHeader(file);
    const bytes = decodeBytesWithinLimits(meta, maxDecodeBytes);
    if (await provenWholeJpeg(file, meta)) thumbnailFile = null;
    else await renderUnderBudget(file, type.mimeType, thumbnailFile, maxDecodeBytes, bytes);
    const { size } = await fsp.stat(file);
    return {
      file,
      thumbnailFile,
      ...type,
      size,
      width: meta.autoOrient?.width ?? meta.width,
      height: meta.autoOrient?.height ?? meta.height,
      checksum: knownChecksum ?? (await sha256OfFile(file)),
    };
  } catch (err) {
    if (thumbnailFile) await removeQuietly(thumbnailFile);
    if (err instanceof HttpError) throw err;
    // libvips says a full disk only in words: it is no reason to call the photo damaged.
    if (isDiskFull(err)) throw new InsufficientStorageError();
    if (err instanceof Error && !("code" in err)) throw new UnsupportedMediaTypeError(IMAGE_DAMAGED);
    throw err;
  }
}

function renderUnderBudget(
  file: string,
  mimeType: string,
  thumbnailFile: string,
  maxDecodeBytes: number,
  bytes: number,
): Promise<void> {
  return decodeQueue(maxDecodeBytes).run(() => renderThumbnail(file, mimeType, thumbnailFile), bytes);
}

/**
 * Renders the thumbnail of a stored image that has none yet, beside it under a new name, and
 * answers that name's storage key. Rejects if the image is gone or cannot be decoded.
 */
export async function renderStoredThumbnail(
  config: Config,
  { storageKey, mimeType }: { storageKey: string; mimeType: string },
): Promise<string> {
  const file = uploadPath(config, storageKey);
  const bytes = decodeBytesWithinLimits(await readHeader(file), config.maxDecodeBytes);
  const name = `${crypto.randomBytes(16).toString("hex")}.thumb.webp`;
  const temp = path.join(uploadsTempRoot(config), name);
  const thumbnailKey = `${path.posix.dirname(storageKey)}/${name}`;
  try {
    await fsp.mkdir(uploadsTempRoot(config), { recursive: true });
    await renderUnderBudget(file, mimeType, temp, config.maxDecodeBytes, bytes);
    await fsp.rename(temp, uploadPath(config, thumbnailKey));
  } finally {
    await removeQuietly(temp);
  }
  return thumbnailKey;
}

const JPEG_END = Buffer.from([0xff, 0xd9]);

/**
 * Decodes the whole image once, in sequential mode, failing on truncation or corrupt data, into
 * its thumbnail. A JPEG whose data is whole but lacks its final end marker (which browsers and
 * viewers show) is decoded with the marker added, and then any warning refuses it: data really
 * cut short reaches the added marker too early, which libjpeg reports.
 */
async function renderThumbnail(file: string, mimeType: string, thumbnailFile: string): Promise<void> {
  const endless = mimeType === "image/jpeg" && !(await endsWith(file, JPEG_END));
  const input = endless ? Buffer.concat([await fsp.readFile(file), JPEG_END]) : file;
  await sharp(input, {
    failOn: endless ? "warning" : "error",
    limitInputPixels: MAX_IMAGE_PIXELS,
    sequentialRead: true,
  })
    .rotate()
    .resize({ width: THUMBNAIL_SIZE, height: THUMBNAIL_SIZE, fit: "inside", withoutEnlargement: true })
    // Effort 1 of 6: 8 ms less per photo than the default 4 (52 against 60 ms for a 12-megapixel
    // JPEG, bench/README.md), and a 400 px thumbnail no larger.
    .webp({ quality: 80, effort: 1 })
    .toFile(thumbnailFile);
}

async function endsWith(file: string, tail: Buffer): Promise<boolean> {
  const handle = await fsp.open(file, "r");
  try {
    const { size } = await handle.stat();
    if (size < tail.length) return false;
    const end = Buffer.alloc(tail.length);
    await handle.read(end, 0, tail.length, size - tail.length);
    return end.equals(tail);
  } finally {
    await handle.close();
  }
}

/** Moves a prepared image and its thumbnail under UPLOADS_DIR/<projectId>/ with a generated name. */
export async function placeImage(config: Config, projectId: number, image: PreparedImage): Promise<StoredImage> {
  const name = crypto.randomBytes(16).toString("hex");
  const storageKey = `${projectId}/${name}.${image.extension}`;
  const thumbnailKey = `${projectId}/${name}.thumb.webp`;
  const target = uploadPath(config, storageKey);
  const thumbnailTarget = uploadPath(config, thumbnailKey);
  await fsp.mkdir(path.dirname(target), { recursive: true });
  try {
    if (image.thumbnailFile) await fsp.rename(image.thumbnailFile, thumbnailTarget);
    await fsp.rename(image.file, target);
  } catch (err) {
    await removeQuietly(target, thumbnailTarget);
    throw err;
  }
  const { file: _file, thumbnailFile: _thumbnail, extension: _extension, ...facts } = image;
  return { ...facts, storageKey, thumbnailKey: image.thumbnailFile ? thumbnailKey : null };
}

export async function removeStoredImages(
  config: Config,
  images: Array<{ storageKey: string; thumbnailKey: string | null }>,
) {
  const files = images.flatMap((i) => [i.storageKey, i.thumbnailKey].filter((k): k is string => Boolean(k)));
  await removeQuietly(...files.map((key) => uploadPath(config, key)));
}
