import crypto from "node:crypto";
import fs from "node:fs";
import fsp from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import sharp, { type Metadata, type Sharp } from "sharp";
import type { Config } from "../config";
import { HttpError, InsufficientStorageError, UnsupportedMediaTypeError } from "../http/errors";
import { captureTimeFromExif } from "../attachments/capture-time";
import { isDiskFull } from "./disk-full";
import { makeFolder } from "./file-modes";
import { endsWithWholeScan } from "./jpeg-structure";
import { withLocalCopy } from "./local-copy";
import { removeQuietly, uploadsTempRoot } from "./paths";
import { storesOf } from "./stores";
import { Semaphore } from "./semaphore";
import { IMAGE_SIGNATURE_BYTES, imageTypeOf, type ImageType } from "../../api/image-types";

// Every image is decoded once and never again; libvips' operation cache would only hold memory.
sharp.cache(false);

export const THUMBNAIL_SIZE = 400;

/** What is made of every stored photo besides itself, in the order idle time renders them. */
export const RENDITIONS = ["thumbnail", "preview"] as const;
export type Rendition = (typeof RENDITIONS)[number];

export interface RenditionSpec {
  /** The long edge in pixels; a smaller photo keeps its own size. */
  size: number;
  /** How the file's name ends. */
  suffix: string;
  /** Content-Type of the rendered file. */
  mimeType: string;
  /** What its ETag adds to the photo's checksum: `"<checksum>-<tag>"`. */
  tag: string;
  encode: (image: Sharp) => Sharp;
}

// Effort 1 of 6: 8 ms less per photo than the default 4 (52 against 60 ms for a 12-megapixel
// JPEG, bench/README.md before 837a6a9), and a 400 px thumbnail no larger.
const encodeThumbnail = (image: Sharp) => image.webp({ quality: 80, effort: 1 });

/**
 * A preview is a JPEG, so that it opens anywhere once downloaded (the web-size ZIP hands it out),
 * in sRGB with that profile attached: colour-managed browsers show it as the photo, converted from
 * whatever profile the photo carried. Transparency is laid on white. mozjpeg at quality 82 keeps
 * a 2048 px photo around 300–600 kB (a 24-megapixel one under 700 kB, previews.test.ts).
 */
const encodePreview = (image: Sharp) =>
  image.flatten({ background: "#ffffff" }).withIccProfile("srgb").jpeg({ quality: 82, mozjpeg: true });

export function renditionSpec(config: Pick<Config, "previewSize">, rendition: Rendition): RenditionSpec {
  return rendition === "thumbnail"
    ? { size: THUMBNAIL_SIZE, suffix: ".thumb.webp", mimeType: "image/webp", tag: "thumb", encode: encodeThumbnail }
    : {
        size: config.previewSize,
        suffix: ".preview.jpg",
        mimeType: "image/jpeg",
        tag: "preview",
        encode: encodePreview,
      };
}
const THUMBNAIL = renditionSpec({ previewSize: 0 }, "thumbnail");

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
  /** When it was taken (UTC, ISO), from the EXIF its header carries; null when it says none. */
  capturedAt: string | null;
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

/**
 * How far libjpeg scales a JPEG down while decoding it for a rendition of `longEdge` pixels: as
 * sharp chooses (src/pipeline.cc), the largest of 8, 4 and 2 the shrink reaches, halved when the
 * shrink is that whole number.
 */
function jpegShrinkOnLoad(width: number, height: number, longEdge: number): number {
  const shrink = Math.max(width, height) / longEdge;
  const factor = [8, 4, 2].find((f) => shrink >= f) ?? 1;
  return factor > 1 && Math.trunc(shrink) === factor ? factor / 2 : factor;
}

/** How much memory decoding an image for its check and a rendition of `longEdge` pixels takes, from its header alone. */
export function decodeBytes(
  meta: Pick<Metadata, "width" | "height" | "channels" | "depth" | "pages" | "format" | "isProgressive">,
  longEdge = THUMBNAIL_SIZE,
): number {
  const bytesPerSample: Record<string, number> = { ushort: 2, short: 2, uint: 4, int: 4, float: 4, double: 8 };
  const fullFrame =
    meta.width * meta.height * (meta.channels ?? 4) * (bytesPerSample[meta.depth ?? ""] ?? 1) * (meta.pages ?? 1);
  // A baseline JPEG is decoded scaled down (by an eighth of each side for most thumbnails;
  // libjpeg's scaled decoding still reads every byte); progressive JPEGs, interlaced PNGs and the
  // rest hold it all.
  if (meta.format === "jpeg" && !meta.isProgressive)
    return fullFrame / jpegShrinkOnLoad(meta.width, meta.height, longEdge) ** 2;
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
async function readHeader(file: string | Buffer): Promise<Metadata> {
  return sharp(file, { limitInputPixels: false })
    .metadata()
    .catch(() => {
      throw new UnsupportedMediaTypeError(IMAGE_DAMAGED);
    });
}

/** Refuses, with its reason, an image too large to decode; answers the memory its decode takes. */
function decodeBytesWithinLimits(meta: Metadata, maxDecodeBytes: number, longEdge = THUMBNAIL_SIZE): number {
  if (meta.width * meta.height > MAX_IMAGE_PIXELS) throw new UnsupportedMediaTypeError(IMAGE_TOO_LARGE);
  const bytes = decodeBytes(meta, longEdge);
  if (bytes > maxDecodeBytes) throw new UnsupportedMediaTypeError(IMAGE_TOO_LARGE_TO_PROCESS);
  return bytes;
}

/**
 * Runs `work`, a decode of `input` for a rendition of `longEdge` pixels, within the decode budget
 * uploads and renditions share; refuses, with its reason, an image too large to decode.
 */
export async function decodeWithinBudget<T>(
  input: string | Buffer,
  maxDecodeBytes: number,
  longEdge: number,
  work: () => Promise<T>,
): Promise<T> {
  const bytes = decodeBytesWithinLimits(await readHeader(input), maxDecodeBytes, longEdge);
  return decodeQueue(maxDecodeBytes).run(work, bytes);
}

/**
 * Whether a baseline JPEG is proven whole without decoding all of it: its one scan runs on to the
 * end-of-image marker (so it was not cut short) and its first rows decode (so its tables are
 * sound). A decode of such a file with `failOn: "error"` refuses nothing more: damage inside the
 * scan data is only ever a libjpeg warning (bench/README.md before 837a6a9 has the experiment).
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
  let thumbnailFile: string | null = `${file}${THUMBNAIL.suffix}`;
  try {
    const meta = await readHeader(file);
    const bytes = decodeBytesWithinLimits(meta, maxDecodeBytes);
    if (await provenWholeJpeg(file, meta)) thumbnailFile = null;
    else await renderUnderBudget(file, type.mimeType, thumbnailFile, THUMBNAIL, maxDecodeBytes, bytes);
    const { size } = await fsp.stat(file);
    return {
      file,
      thumbnailFile,
      ...type,
      size,
      width: meta.autoOrient?.width ?? meta.width,
      height: meta.autoOrient?.height ?? meta.height,
      checksum: knownChecksum ?? (await sha256OfFile(file)),
      capturedAt: captureTimeFromExif(meta.exif),
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
  output: string,
  spec: RenditionSpec,
  maxDecodeBytes: number,
  bytes: number,
): Promise<void> {
  return decodeQueue(maxDecodeBytes).run(() => renderRendition(file, mimeType, output, spec), bytes);
}

/**
 * Renders a rendition of a stored image that has none yet, beside it under a new name, and
 * answers that name's storage key. Rejects if the image is gone or cannot be decoded, or if
 * decoding it for this size would take more than MAX_DECODE_BYTES.
 */
export async function renderStoredRendition(
  config: Config,
  { storageKey, mimeType }: { storageKey: string; mimeType: string },
  rendition: Rendition,
): Promise<string> {
  const spec = renditionSpec(config, rendition);
  const store = storesOf(config).uploads;
  const name = `${crypto.randomBytes(16).toString("hex")}${spec.suffix}`;
  const temp = path.join(uploadsTempRoot(config), name);
  const key = `${path.posix.dirname(storageKey)}/${name}`;
  try {
    await withLocalCopy(store, storageKey, uploadsTempRoot(config), async (file) => {
      const bytes = decodeBytesWithinLimits(await readHeader(file), config.maxDecodeBytes, spec.size);
      await makeFolder(uploadsTempRoot(config));
      await renderUnderBudget(file, mimeType, temp, spec, config.maxDecodeBytes, bytes);
    });
    await store.moveFileIn(key, temp, { contentType: spec.mimeType });
  } finally {
    await removeQuietly(temp);
  }
  return key;
}

const JPEG_END = Buffer.from([0xff, 0xd9]);

/**
 * Decodes the whole image once, in sequential mode, failing on truncation or corrupt data, into
 * a rendition: upright (EXIF orientation applied), never enlarged. A JPEG whose data is whole but
 * lacks its final end marker (which browsers and viewers show) is decoded with the marker added,
 * and then any warning refuses it: data really cut short reaches the added marker too early,
 * which libjpeg reports.
 */
async function renderRendition(file: string, mimeType: string, output: string, spec: RenditionSpec): Promise<void> {
  const endless = mimeType === "image/jpeg" && !(await endsWith(file, JPEG_END));
  const input = endless ? Buffer.concat([await fsp.readFile(file), JPEG_END]) : file;
  const image = sharp(input, {
    failOn: endless ? "warning" : "error",
    limitInputPixels: MAX_IMAGE_PIXELS,
    sequentialRead: true,
  });
  await spec
    .encode(image.rotate().resize({ width: spec.size, height: spec.size, fit: "inside", withoutEnlargement: true }))
    .toFile(output);
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

/** Stores a prepared image and its thumbnail under `<projectId>/` with a generated name; both or neither. */
export async function placeImage(config: Config, projectId: number, image: PreparedImage): Promise<StoredImage> {
  const store = storesOf(config).uploads;
  const name = crypto.randomBytes(16).toString("hex");
  const storageKey = `${projectId}/${name}.${image.extension}`;
  const thumbnailKey = `${projectId}/${name}${THUMBNAIL.suffix}`;
  try {
    if (image.thumbnailFile)
      await store.moveFileIn(thumbnailKey, image.thumbnailFile, { contentType: THUMBNAIL.mimeType });
    // Its SHA-256 goes with it, so a backup or a migration needs not read it back to learn it.
    await store.moveFileIn(storageKey, image.file, { contentType: image.mimeType, sha256: image.checksum });
  } catch (err) {
    await store.remove(storageKey, thumbnailKey);
    throw err;
  }
  const { file: _file, thumbnailFile: _thumbnail, extension: _extension, ...facts } = image;
  return { ...facts, storageKey, thumbnailKey: image.thumbnailFile ? thumbnailKey : null };
}

/** Every file of a stored image: itself and whichever renditions it has. */
export function filesOfImage(image: { storageKey: string; thumbnailKey: string | null; previewKey?: string | null }) {
  return [image.storageKey, image.thumbnailKey, image.previewKey].filter((k): k is string => Boolean(k));
}

export async function removeStoredImages(
  config: Config,
  images: Array<{ storageKey: string; thumbnailKey: string | null; previewKey?: string | null }>,
) {
  await storesOf(config).uploads.remove(...images.flatMap(filesOfImage));
}
