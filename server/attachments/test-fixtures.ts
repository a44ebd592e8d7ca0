import crypto from "node:crypto";
import zlib from "node:zlib";
import sharp from "sharp";
import type { AppContext } from "../context";
import { renditionQueue } from "./renditions.service";
import { readStored } from "../test/stored-files";

/** Small real images of each accepted type, made with sharp. */
export async function makeImage(format: "jpeg" | "png" | "gif" | "webp", width = 64, height = 48): Promise<Buffer> {
  const image = sharp({ create: { width, height, channels: 3, background: { r: 200, g: 80, b: 40 } } });
  return image[format]().toBuffer();
}

/** A photo-like JPEG whose grain keeps it from compressing small. */
export async function makeNoisyJpeg(width: number, height: number): Promise<Buffer> {
  return sharp({
    create: { width, height, channels: 3, background: "#808080", noise: { type: "gaussian", mean: 128, sigma: 40 } },
  })
    .jpeg({ quality: 90 })
    .toBuffer();
}

export async function setPublishStatus(ctx: AppContext, projectId: number, status: string) {
  await ctx.db("projects").where({ id: projectId }).update({ publish_status: status });
}

/** An attachment's thumbnail's key, rendered first if it was stored without one yet. */
export async function thumbnailKey(ctx: AppContext, attachmentId: number): Promise<string> {
  const key = await renditionQueue(ctx).renderNow("thumbnail", attachmentId);
  if (!key) throw new Error(`attachment ${attachmentId} has no thumbnail`);
  return key;
}

/** An attachment's thumbnail's bytes, wherever it is stored, rendered first if need be. */
export async function storedThumbnail(ctx: AppContext, attachmentId: number): Promise<Buffer> {
  return readStored(ctx, await thumbnailKey(ctx, attachmentId));
}

export const sha256 = (data: Buffer) => crypto.createHash("sha256").update(data).digest("hex");

/**
 * Attach options that send a file name exactly as given, directories included: superagent hands
 * them to form-data, whose `filepath` does that (its typings only list `filename`).
 */
export const sentAs = (name: string) => ({ filepath: name }) as unknown as { filename: string };

function pngChunk(type: string, data: Buffer): Buffer {
  const typed = Buffer.concat([Buffer.from(type, "latin1"), data]);
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(zlib.crc32(typed));
  return Buffer.concat([length, typed, crc]);
}

/** A valid black 1-bit PNG of any size that is only a few KiB on disk, however many pixels it has. */
export function makeHugeBlankPng(width: number, height: number): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([1, 0, 0, 0, 0], 8);
  const rows = Buffer.alloc(height * (1 + Math.ceil(width / 8)));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk("IHDR", header),
    pngChunk("IDAT", zlib.deflateSync(rows, { level: 9 })),
    pngChunk("IEND", Buffer.alloc(0)),
  ]);
}

/** Adam7's seven passes: where each starts and how far apart its pixels are, across and down. */
const ADAM7 = [
  [0, 0, 8, 8],
  [4, 0, 8, 8],
  [0, 4, 4, 8],
  [2, 0, 4, 4],
  [0, 2, 2, 4],
  [1, 0, 2, 2],
  [0, 1, 1, 2],
];

/**
 * The decode bomb: a 16-bit RGBA, Adam7-interlaced PNG of zeros, about a megabyte on disk that
 * takes width × height × 8 bytes to decode. Deflated a row at a time, never held whole.
 */
export async function makeInterlacedZeroPng(width: number, height: number): Promise<Buffer> {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([16, 6, 0, 0, 1], 8);
  const zeros = Buffer.alloc(1 + width * 8);
  const deflate = zlib.createDeflate({ level: 9 });
  const compressed: Buffer[] = [];
  deflate.on("data", (chunk: Buffer) => compressed.push(chunk));
  const ended = new Promise((resolve) => deflate.on("end", resolve));
  for (const [x0, y0, dx, dy] of ADAM7) {
    const passWidth = Math.ceil((width - x0) / dx);
    const passHeight = Math.ceil((height - y0) / dy);
    if (passWidth <= 0 || passHeight <= 0) continue;
    for (let row = 0; row < passHeight; row++) {
      if (!deflate.write(zeros.subarray(0, 1 + passWidth * 8))) {
        await new Promise((resolve) => deflate.once("drain", resolve));
      }
    }
  }
  deflate.end();
  await ended;
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk("IHDR", header),
    pngChunk("IDAT", Buffer.concat(compressed)),
    pngChunk("IEND", Buffer.alloc(0)),
  ]);
}
