/** Camera-sized JPEGs for the benches, generated once into bench/.data/ and reused. */
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import sharp from "sharp";

const MB = 1e6;

/**
 * Random pixels enlarged 3x: grain like a high-ISO photo that does not compress small (about
 * 0.58 bytes a pixel at quality 92), so a 3-8 MB file has a camera's 5-14 megapixels.
 */
async function renderPhoto(targetBytes: number): Promise<Buffer> {
  const width = Math.round(Math.sqrt(((targetBytes / 0.58) * 4) / 3));
  const height = Math.round((width * 3) / 4);
  const [w, h] = [Math.ceil(width / 3), Math.ceil(height / 3)];
  return sharp(crypto.randomBytes(w * h * 3), { raw: { width: w, height: h, channels: 3 } })
    .resize(width, height, { kernel: "cubic" })
    .jpeg({ quality: 92 })
    .toBuffer();
}

/** `count` JPEGs in `dir`, their sizes spread evenly over `minMb`-`maxMb` MB in a shuffled order. */
export async function ensurePhotos(dir: string, count: number, minMb: number, maxMb: number): Promise<string[]> {
  fs.mkdirSync(dir, { recursive: true });
  const files: string[] = [];
  for (let i = 0; i < count; i++) {
    const file = path.join(dir, `photo-${String(i).padStart(3, "0")}.jpg`);
    files.push(file);
    if (fs.existsSync(file)) continue;
    fs.writeFileSync(`${file}.part`, await renderPhoto((minMb + ((maxMb - minMb) * ((i * 37) % count)) / count) * MB));
    fs.renameSync(`${file}.part`, file);
    if (i % 20 === 19) console.log(`generated ${i + 1}/${count} photos`);
  }
  return files;
}

/** Every JPEG in a folder (BENCH_PHOTOS_DIR: your own camera's photos). */
export function photosIn(dir: string): string[] {
  const files = fs
    .readdirSync(dir)
    .filter((name) => /\.jpe?g$/i.test(name))
    .sort()
    .map((name) => path.join(dir, name));
  if (files.length === 0) throw new Error(`no JPEG in ${dir}`);
  return files;
}

/**
 * `count` files of `bytes` random bytes behind a JPEG start-of-image marker (photos do not
 * compress), named IMG_<n>.jpg with `digits` digits in `folder`, made once and reused. Answers the names.
 */
export function ensureRandomJpegs(folder: string, count: number, bytes: number, digits: number): string[] {
  fs.mkdirSync(folder, { recursive: true });
  const buffer = Buffer.alloc(bytes);
  return Array.from({ length: count }, (_, i) => {
    const name = `IMG_${String(i + 1).padStart(digits, "0")}.jpg`;
    const file = path.join(folder, name);
    if (!fs.existsSync(file) || fs.statSync(file).size !== bytes) {
      crypto.randomFillSync(buffer);
      buffer.set([0xff, 0xd8, 0xff, 0xe0]);
      fs.writeFileSync(file, buffer);
    }
    return name;
  });
}
