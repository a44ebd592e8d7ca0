import crypto from "node:crypto";
import fs from "node:fs";
import fsp from "node:fs/promises";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import sharp from "sharp";
import type { Config } from "../config";
import { HttpError, UnsupportedMediaTypeError } from "../http/errors";
import { removeQuietly, uploadPath } from "./paths";

// Every image is decoded once and never again; libvips' operation cache would only hold memory.
sharp.cache(false);

export const THUMBNAIL_SIZE = 400;

/**
 * Decoding costs time and memory by pixel count, not file size: a few KiB of PNG can claim 256 MP.
 * This cap still admits the largest camera photos (a 151 MP Phase One IQ4 is 14204 × 10652).
 */
export const MAX_IMAGE_PIXELS = 160_000_000;
export const IMAGE_TOO_LARGE = `Image has more than ${MAX_IMAGE_PIXELS / 1_000_000} megapixels`;

interface ImageType {
  mimeType: "image/jpeg" | "image/png" | "image/gif" | "image/webp";
  extension: string;
}

/** A checked image with its thumbnail, both still in the temp folder. */
export interface PreparedImage {
  file: string;
  thumbnailFile: string;
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
  thumbnailKey: string;
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
  const head = await readHead(file, 12);
  const ascii = (from: number, to: number) => head.subarray(from, to).toString("latin1");
  if (head.length >= 3 && head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff)
    return { mimeType: "image/jpeg", extension: "jpg" };
  if (head.length >= 8 && head.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])))
    return { mimeType: "image/png", extension: "png" };
  if (ascii(0, 6) === "GIF87a" || ascii(0, 6) === "GIF89a") return { mimeType: "image/gif", extension: "gif" };
  if (ascii(0, 4) === "RIFF" && ascii(8, 12) === "WEBP") return { mimeType: "image/webp", extension: "webp" };
  return undefined;
}

export async function sha256OfFile(file: string): Promise<string> {
  const hash = crypto.createHash("sha256");
  await pipeline(fs.createReadStream(file), hash);
  return hash.digest("hex");
}

/**
 * Checks that a received file is a whole JPEG, PNG, GIF or WebP image and renders its thumbnail
 * beside it. Rendering decodes the full image, so a truncated or corrupt file is refused here.
 */
export async function prepareImage(file: string, knownChecksum?: string): Promise<PreparedImage> {
  const type = await detectImageType(file);
  if (!type) throw new UnsupportedMediaTypeError();
  const thumbnailFile = `${file}.thumb.webp`;
  try {
    // Read from the header only (sharp's own limit would refuse it with no reason given), so an
    // oversized image is refused with its reason before anything is decoded.
    const meta = await sharp(file, { failOn: "error", limitInputPixels: false }).metadata();
    if (meta.width * meta.height > MAX_IMAGE_PIXELS) throw new UnsupportedMediaTypeError(IMAGE_TOO_LARGE);
    await sharp(file, { failOn: "error", limitInputPixels: MAX_IMAGE_PIXELS })
      .rotate()
      .resize({ width: THUMBNAIL_SIZE, height: THUMBNAIL_SIZE, fit: "inside", withoutEnlargement: true })
      .webp({ quality: 80 })
      .toFile(thumbnailFile);
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
    await removeQuietly(thumbnailFile);
    if (err instanceof HttpError) throw err;
    if (err instanceof Error && !("code" in err)) throw new UnsupportedMediaTypeError();
    throw err;
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
    await fsp.rename(image.thumbnailFile, thumbnailTarget);
    await fsp.rename(image.file, target);
  } catch (err) {
    await removeQuietly(target, thumbnailTarget);
    throw err;
  }
  const { file: _file, thumbnailFile: _thumbnail, extension: _extension, ...facts } = image;
  return { ...facts, storageKey, thumbnailKey };
}

export async function removeStoredImages(
  config: Config,
  images: Array<{ storageKey: string; thumbnailKey: string | null }>,
) {
  const files = images.flatMap((i) => [i.storageKey, i.thumbnailKey].filter((k): k is string => Boolean(k)));
  await removeQuietly(...files.map((key) => uploadPath(config, key)));
}
