import crypto from "node:crypto";
import path from "node:path";
import sharp from "sharp";
import type { Config } from "../config";
import { HttpError, UnsupportedMediaTypeError } from "../http/errors";
import { makeFolder } from "./file-modes";
import { decodeWithinBudget, IMAGE_DAMAGED } from "./image-files";
import { removeQuietly, uploadsTempRoot } from "./paths";
import { storesOf } from "./stores";
import { imageTypeOf } from "../../api/image-types";

/** The logo's longest side once stored: sharp on a retina header, small on the page. */
export const LOGO_SIZE = 512;
/** An uploaded logo, before it is re-encoded. */
export const MAX_LOGO_BYTES = 2 * 1024 * 1024;
// A logo is small: far fewer pixels than a photo may have, so a few kB of PNG cannot claim gigabytes.
const MAX_LOGO_PIXELS = 40_000_000;

/** A stored logo's key, `studio/<32 hex>.webp`: the only names the public logo route serves. */
export const LOGO_KEY = /^studio\/[0-9a-f]{32}\.webp$/;

/**
 * Re-encodes an uploaded logo (JPEG, PNG, GIF or WebP, told by its bytes; SVG and anything else
 * refused) into a WebP of at most LOGO_SIZE pixels a side, without its metadata, and stores it
 * under a new random name. What is served is always our own raster, never the uploaded bytes.
 */
export async function storeLogo(config: Config, bytes: Buffer): Promise<string> {
  if (!imageTypeOf(bytes)) throw new UnsupportedMediaTypeError("The logo must be a JPEG, PNG, GIF or WebP image");
  const key = `studio/${crypto.randomBytes(16).toString("hex")}.webp`;
  const temp = path.join(uploadsTempRoot(config), `logo-${crypto.randomBytes(8).toString("hex")}.webp`);
  try {
    await makeFolder(uploadsTempRoot(config));
    // Within the decode budget photos use: a logo being re-encoded never adds a decode beside theirs.
    await decodeWithinBudget(bytes, config.maxDecodeBytes, LOGO_SIZE, () =>
      sharp(bytes, { limitInputPixels: MAX_LOGO_PIXELS, failOn: "error" })
        .rotate()
        .resize({ width: LOGO_SIZE, height: LOGO_SIZE, fit: "inside", withoutEnlargement: true })
        .webp({ quality: 90 })
        .toFile(temp),
    );
    await storesOf(config).uploads.moveFileIn(key, temp, { contentType: "image/webp" });
    return key;
  } catch (err) {
    if (err instanceof HttpError) throw err; // too large to decode: its own reason
    if (err instanceof Error && !("code" in err)) throw new UnsupportedMediaTypeError(IMAGE_DAMAGED);
    throw err;
  } finally {
    await removeQuietly(temp);
  }
}

export async function removeLogo(config: Config, key: string | null): Promise<void> {
  if (key && LOGO_KEY.test(key)) await storesOf(config).uploads.remove(key);
}

/** Whether a key the public route was asked for names a logo (the route serves no other name). */
export const isLogoKey = (key: string) => LOGO_KEY.test(key);
