import crypto from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import sharp from "sharp";
import type { AppContext } from "../context";
import { removeQuietly, uploadsTempRoot } from "../storage/paths";
import { uploadAttachments, type IncomingFile } from "./attachments.service";

type Rgb = [number, number, number];
type Pattern = "diagonal" | "radial" | "waves" | "rings";

const THEMES: Array<{ name: string; from: Rgb; to: Rgb }> = [
  { name: "sunrise", from: [252, 176, 69], to: [131, 58, 180] },
  { name: "lagoon", from: [0, 128, 128], to: [173, 232, 244] },
  { name: "meadow", from: [86, 171, 47], to: [240, 230, 140] },
  { name: "dusk", from: [25, 25, 112], to: [255, 105, 97] },
  { name: "ember", from: [120, 20, 10], to: [255, 200, 80] },
  { name: "glacier", from: [220, 240, 255], to: [60, 110, 170] },
  { name: "orchard", from: [200, 40, 60], to: [250, 220, 200] },
];
const PATTERNS: Pattern[] = ["diagonal", "radial", "waves", "rings"];

/** Where between the two colours a pixel sits, 0..1, for each pattern. */
function mix(pattern: Pattern, x: number, y: number): number {
  switch (pattern) {
    case "diagonal":
      return (x + y) / 2;
    case "radial":
      return Math.min(1, Math.hypot(x - 0.5, y - 0.5) * 1.6);
    case "waves":
      return 0.5 + 0.25 * Math.sin(x * 14 + Math.sin(y * 5) * 2) + 0.25 * y - 0.125;
    case "rings":
      return 0.5 + 0.5 * Math.sin(Math.hypot(x - 0.3, y - 0.6) * 30);
  }
}

/** A text-free photo stand-in: a colour pattern with fine grain, so it encodes to a realistic size. */
function renderPixels(width: number, height: number, from: Rgb, to: Rgb, pattern: Pattern, seed: number): Buffer {
  const pixels = Buffer.alloc(width * height * 3);
  let state = seed >>> 0 || 1;
  for (let row = 0; row < height; row++) {
    for (let col = 0; col < width; col++) {
      const t = mix(pattern, col / width, row / height);
      state = (state * 1664525 + 1013904223) >>> 0;
      const grain = ((state >>> 24) - 128) / 8;
      const at = (row * width + col) * 3;
      for (let c = 0; c < 3; c++)
        pixels[at + c] = Math.max(0, Math.min(255, Math.round(from[c] + (to[c] - from[c]) * t + grain)));
    }
  }
  return pixels;
}

async function renderDemoPhoto(index: number, format: "jpeg" | "png"): Promise<Buffer> {
  const theme = THEMES[index % THEMES.length];
  const [width, height] = format === "png" ? [720, 480] : index % 3 === 2 ? [1000, 1500] : [1600, 1067];
  const pixels = renderPixels(
    width,
    height,
    theme.from,
    theme.to,
    PATTERNS[index % PATTERNS.length],
    index * 7919 + 17,
  );
  const image = sharp(pixels, { raw: { width, height, channels: 3 } });
  return format === "png" ? image.png({ compressionLevel: 9 }).toBuffer() : image.jpeg({ quality: 88 }).toBuffer();
}

/**
 * Adds 3 to 5 generated photos to each demo project (JPEGs, and one PNG per project), stored
 * through the same checks, thumbnails and checksums as an upload.
 */
export async function seedDemoAttachments(ctx: AppContext, projectIds: number[]): Promise<void> {
  const tempDir = path.join(uploadsTempRoot(ctx.config), `demo-${crypto.randomBytes(8).toString("hex")}`);
  await fs.mkdir(tempDir, { recursive: true });
  try {
    let photo = 0;
    for (const [p, projectId] of projectIds.entries()) {
      const count = 3 + (p % 3);
      const files: IncomingFile[] = [];
      for (let i = 0; i < count; i++, photo++) {
        const format = i === count - 1 ? "png" : "jpeg";
        const theme = THEMES[photo % THEMES.length].name;
        const originalName = `${theme}-${String(i + 1).padStart(2, "0")}.${format === "png" ? "png" : "jpg"}`;
        const tempFile = path.join(tempDir, `${photo}.${format}`);
        await fs.writeFile(tempFile, await renderDemoPhoto(photo, format));
        files.push({ tempFile, originalName, size: (await fs.stat(tempFile)).size });
      }
      await uploadAttachments(ctx, projectId, files);
    }
  } finally {
    await removeQuietly(tempDir);
  }
}
