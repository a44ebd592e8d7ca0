import fs from "node:fs";
import request from "supertest";
import sharp from "sharp";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { closeContext, createContext } from "../bootstrap";
import { runStartupTasks } from "../startup";
import { uploadPath } from "../storage/paths";
import { appWithUser } from "../test/app-with-user";
import { insertProjectRow } from "../test/rows";
import { filesUnder, makeNoisyJpeg } from "./test-fixtures";
import { renditionQueue } from "./renditions.service";

const MB = 1024 * 1024;
const made = appWithUser({ MAX_UPLOAD_BYTES: String(20 * MB) }, { captureLog: true });
let projectId: number;

beforeEach(async () => {
  projectId = await insertProjectRow(made.t.ctx);
});

const RENDERED = { timeout: 15_000, interval: 100 };

/** Reads a binary answer into a Buffer whatever its type. */
const binary = (req: request.Test) =>
  req.buffer(true).parse((res, done) => {
    const chunks: Buffer[] = [];
    res.on("data", (c: Buffer) => chunks.push(c));
    res.on("end", () => done(null, Buffer.concat(chunks)));
  });

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
    const preview = fs.readFileSync(uploadPath(made.t.ctx.config, key));
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
      expect(previewUrl).toMatch(new RegExp(`^/api/attachments/${id}/preview\\?exp=\\d+&sig=[\\w-]{22}$`));
      const first = await binary(request(made.t.app).get(previewUrl));
      expect([first.status, first.headers["content-type"]]).toEqual([200, "image/jpeg"]);
      expect(first.headers.etag).toBe(`"${checksum}-preview"`);
      expect(first.headers["content-disposition"]).toMatch(
        /^inline; filename=".*\.jpeg"; filename\*=UTF-8''Mari%C3%A9e\.jpeg$/,
      );
      const meta = await sharp(first.body as Buffer).metadata();
      expect([meta.width, meta.height]).toEqual([2048, 1365]);
      const key = await previewKeyInDb(id);
      const again = await binary(request(made.t.app).get(previewUrl));
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
      const res = await binary(request(made.t.app).get(previewUrl));
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
    const res = await binary(request(made.t.app).get(previewUrl));
    expect(res.status).toBe(200);
    expect((res.body as Buffer).length).toBeLessThan(700 * 1024);
    const meta = await sharp(res.body as Buffer).metadata();
    expect([meta.width, meta.height]).toEqual([2048, 1365]);
  }, 60_000);

  it("answers 404 'Preview not found' when the photo cannot be rendered, and logs why", async () => {
    const done = holdBackground();
    try {
      const { id, previewUrl } = await upload(await makeNoisyJpeg(600, 400), "gone.jpg");
      const row = await made.t.ctx.db("attachments").where({ id }).first("storage_key");
      fs.rmSync(uploadPath(made.t.ctx.config, row.storage_key));
      const res = await request(made.t.app).get(previewUrl);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ statusCode: 404, message: "Preview not found" });
      const line = made.t.logLines.map((l) => JSON.parse(l)).find((l) => l.msg === "could not render preview");
      expect(line).toMatchObject({ attachmentId: id, level: 40 });
    } finally {
      done();
    }
  });

  it("renders at start the previews of photos stored without one (from before previews, or a stopped process)", async () => {
    const { id, previewUrl } = await upload(await makeNoisyJpeg(900, 600), "before.jpg");
    expect((await request(made.t.app).get(previewUrl)).status).toBe(200);
    fs.rmSync(uploadPath(made.t.ctx.config, (await previewKeyInDb(id))!));
    await made.t.ctx.db("attachments").where({ id }).update({ preview_key: null });

    const next = await createContext(made.t.ctx.config, made.t.ctx.logger);
    try {
      await runStartupTasks(next);
      expect(renditionQueue(next).waitingOf("preview")).toBeGreaterThan(0);
      await vi.waitFor(async () => expect(await previewKeyInDb(id)).not.toBeNull(), RENDERED);
      expect(fs.existsSync(uploadPath(made.t.ctx.config, (await previewKeyInDb(id))!))).toBe(true);
    } finally {
      await closeContext(next);
    }
  });

  it("leaves no preview of a photo deleted before its render", async () => {
    const { id } = await upload(await makeNoisyJpeg(900, 600), "short-lived.jpg");
    expect((await request(made.t.app).delete(`/api/attachments/${id}`).set(made.user.auth)).status).toBe(204);
    expect(await renditionQueue(made.t.ctx).renderNow("preview", id)).toBeNull();
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(filesUnder(made.t.ctx.config.uploadsDir).filter((f) => f.startsWith(`${projectId}/`))).toEqual([]);
  });
});
