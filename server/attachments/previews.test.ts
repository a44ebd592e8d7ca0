import request from "supertest";
import sharp from "sharp";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { appWithUser } from "../test/app-with-user";
import { insertProjectRow } from "../test/rows";
import { makeNoisyJpeg } from "./test-fixtures";
import { renditionQueue } from "./renditions.service";
import { readStored } from "../test/stored-files";
import { getBinary } from "../test/binary-body";

const MB = 1024 * 1024;
const made = appWithUser({ MAX_UPLOAD_BYTES: String(20 * MB) }, { captureLog: true });
let projectId: number;

beforeEach(async () => {
  projectId = await insertProjectRow(made.t.ctx);
});

const RENDERED = { timeout: 15_000, interval: 100 };

async function upload(file: Buffer, name: string) {
  const res = await request(made.t.app)
    .post(`/api/attachments/projects/${projectId}/upload`)
    .set(made.user.auth)
    .attach("file", file, name);
  expect(res.status).toBe(201);
  return res.body as { id: number; checksum: string; previewUrl: string; viewUrl: string };
}

/** Background rendering waits while an upload is under way: what is asked for is rendered on demand. */
function holdBackground() {
  return renditionQueue(made.t.ctx).uploadStarted();
}

const previewKeyInDb = async (id: number): Promise<string | null> =>
  (await made.t.ctx.db("attachments").where({ id }).first("preview_key"))?.preview_key ?? null;

/**
 * A 3000 × 2000 JPEG stored sideways, left half red and right half blue, whose EXIF orientation
 * (6: turn a quarter clockwise) shows it upright as 2000 × 3000, red at the top and blue below.
 */
async function sidewaysJpeg(): Promise<Buffer> {
  const half = await sharp({ create: { width: 1500, height: 2000, channels: 3, background: "#0000ff" } })
    .png()
    .toBuffer();
  return sharp({ create: { width: 3000, height: 2000, channels: 3, background: "#ff0000" } })
    .composite([{ input: half, left: 1500, top: 0 }])
    .jpeg({ quality: 90 })
    .withMetadata({ orientation: 6 })
    .toBuffer();
}

/** The colour of one pixel of an image. */
async function pixel(image: Buffer, left: number, top: number) {
  const { data } = await sharp(image)
    .extract({ left, top, width: 1, height: 1 })
    .raw()
    .toBuffer({ resolveWithObject: true });
  return [...data];
}

describe("previews", () => {
  it("renders each uploaded photo's preview in idle time: upright, PREVIEW_SIZE on its long edge, an sRGB JPEG with its profile", async () => {
    const { id } = await upload(await sidewaysJpeg(), "sideways.jpg");
    expect(await previewKeyInDb(id)).toBeNull();
    await vi.waitFor(async () => expect(await previewKeyInDb(id)).not.toBeNull(), RENDERED);
    const key = (await previewKeyInDb(id))!;
    expect(key).toMatch(new RegExp(`^${projectId}/[0-9a-f]{32}\\.preview\\.jpg$`));
    const preview = await readStored(made.t.ctx, key);
    const meta = await sharp(preview).metadata();
    expect([meta.format, meta.width, meta.height, meta.space]).toEqual(["jpeg", 1365, 2048, "srgb"]);
    expect(meta.icc?.length).toBeGreaterThan(0);
    expect(meta.orientation ?? 1).toBe(1);
    const [top, bottom] = [await pixel(preview, 682, 100), await pixel(preview, 682, 1948)];
    expect(top[0]).toBeGreaterThan(200);
    expect(top[2]).toBeLessThan(60);
    expect(bottom[2]).toBeGreaterThan(200);
    expect(bottom[0]).toBeLessThan(60);
  });

  it("renders one asked for before then at once and serves it inline as a .jpg, the same one afterwards", async () => {
    const done = holdBackground();
    try {
      const { id, checksum, previewUrl } = await upload(await makeNoisyJpeg(2400, 1600), "Mariée.jpeg");
      expect(previewUrl).toMatch(new RegExp(`^/api/attachments/${id}/preview\\?exp=\\d+&sig=b[\\w-]{22}$`));
      const first = await getBinary(made.t.app, previewUrl);
      expect([first.status, first.headers["content-type"]]).toEqual([200, "image/jpeg"]);
      expect(first.headers.etag).toBe(`"${checksum}-preview"`);
      expect(first.headers["content-disposition"]).toMatch(
        /^inline; filename=".*\.jpeg"; filename\*=UTF-8''Mari%C3%A9e\.jpeg$/,
      );
      const meta = await sharp(first.body as Buffer).metadata();
      expect([meta.width, meta.height]).toEqual([2048, 1365]);
      const key = await previewKeyInDb(id);
      const again = await getBinary(made.t.app, previewUrl);
      expect(Buffer.compare(again.body as Buffer, first.body as Buffer)).toBe(0);
      expect(await previewKeyInDb(id)).toBe(key);
    } finally {
      done();
    }
  });

  it("never enlarges a photo smaller than PREVIEW_SIZE: its preview keeps its size, a transparent PNG laid on white", async () => {
    const done = holdBackground();
    try {
      const png = await sharp({ create: { width: 800, height: 600, channels: 4, background: "#00000000" } })
        .png()
        .toBuffer();
      const { previewUrl } = await upload(png, "logo.png");
      const res = await getBinary(made.t.app, previewUrl);
      expect(res.status).toBe(200);
      expect(res.headers["content-disposition"]).toBe("inline; filename=logo.jpg");
      const meta = await sharp(res.body as Buffer).metadata();
      expect([meta.format, meta.width, meta.height]).toEqual(["jpeg", 800, 600]);
      expect((await pixel(res.body as Buffer, 400, 300)).every((v) => v > 245)).toBe(true);
    } finally {
      done();
    }
  });

  it("keeps the preview of a 24-megapixel JPEG under 700 kB", async () => {
    const photo = await makeNoisyJpeg(6000, 4000);
    expect(photo.length).toBeGreaterThan(10 * MB);
    const { previewUrl } = await upload(photo, "24mp.jpg");
    const res = await getBinary(made.t.app, previewUrl);
    expect(res.status).toBe(200);
    expect((res.body as Buffer).length).toBeLessThan(700 * 1024);
    const meta = await sharp(res.body as Buffer).metadata();
    expect([meta.width, meta.height]).toEqual([2048, 1365]);
  }, 60_000);
});
