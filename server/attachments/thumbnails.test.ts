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

const made = appWithUser({}, { captureLog: true });
let projectId: number;

beforeEach(async () => {
  projectId = await insertProjectRow(made.t.ctx);
});

const RENDERED = { timeout: 15_000, interval: 100 };

async function uploadPhoto(): Promise<{ id: number; thumbnailUrl: string }> {
  const res = await request(made.t.app)
    .post(`/api/attachments/projects/${projectId}/upload`)
    .set(made.user.auth)
    .attach("file", await makeNoisyJpeg(1200, 900), "photo.jpg");
  expect(res.status).toBe(201);
  return res.body;
}

const thumbnailKeyInDb = async (id: number): Promise<string | null> =>
  (await made.t.ctx.db("attachments").where({ id }).first("thumbnail_key"))?.thumbnail_key ?? null;
const projectFiles = () => filesUnder(made.t.ctx.config.uploadsDir).filter((f) => f.startsWith(`${projectId}/`));

describe("thumbnails of photos proven whole without a decode", () => {
  it("answers the upload before rendering the thumbnail, then renders it once no upload is under way", async () => {
    const { id } = await uploadPhoto();
    expect(await thumbnailKeyInDb(id)).toBeNull();
    expect(projectFiles()).toHaveLength(1);
    await vi.waitFor(async () => expect(await thumbnailKeyInDb(id)).not.toBeNull(), RENDERED);
    const thumb = await sharp(uploadPath(made.t.ctx.config, (await thumbnailKeyInDb(id))!)).metadata();
    expect([thumb.format, thumb.width, thumb.height]).toEqual(["webp", 400, 300]);
    expect(projectFiles()).toHaveLength(2);
  });

  it("renders one asked for before then at once, and serves that same one afterwards", async () => {
    const { id, thumbnailUrl } = await uploadPhoto();
    const first = await request(made.t.app).get(thumbnailUrl);
    expect([first.status, first.type]).toEqual([200, "image/webp"]);
    const key = await thumbnailKeyInDb(id);
    expect(key).not.toBeNull();
    const again = await request(made.t.app).get(thumbnailUrl);
    expect(Buffer.compare(again.body as Buffer, first.body as Buffer)).toBe(0);
    expect(await thumbnailKeyInDb(id)).toBe(key);
    expect(projectFiles()).toHaveLength(2);
  });

  it("leaves no thumbnail of a photo deleted before its render", async () => {
    const { id } = await uploadPhoto();
    expect((await request(made.t.app).delete(`/api/attachments/${id}`).set(made.user.auth)).status).toBe(204);
    expect(await renditionQueue(made.t.ctx).renderNow("thumbnail", id)).toBeNull();
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(projectFiles()).toEqual([]);
    expect(filesUnder(made.t.ctx.config.uploadsDir).filter((f) => f.startsWith(".tmp/"))).toEqual([]);
  });

  it("answers 404 'Thumbnail not found' when the photo cannot be rendered, and logs why", async () => {
    const { id, thumbnailUrl } = await uploadPhoto();
    const row = await made.t.ctx.db("attachments").where({ id }).first("storage_key");
    fs.rmSync(uploadPath(made.t.ctx.config, row.storage_key));
    const res = await request(made.t.app).get(thumbnailUrl);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ statusCode: 404, message: "Thumbnail not found" });
    const line = made.t.logLines.map((l) => JSON.parse(l)).find((l) => l.msg === "could not render thumbnail");
    expect(line).toMatchObject({ attachmentId: id, level: 40 });
  });

  it("renders at start the thumbnails a stopped process had not rendered", async () => {
    const { id, thumbnailUrl } = await uploadPhoto();
    expect((await request(made.t.app).get(thumbnailUrl)).status).toBe(200);
    // As a process stopped between storing the photo and rendering its thumbnail leaves it.
    fs.rmSync(uploadPath(made.t.ctx.config, (await thumbnailKeyInDb(id))!));
    await made.t.ctx.db("attachments").where({ id }).update({ thumbnail_key: null });

    const next = await createContext(made.t.ctx.config, made.t.ctx.logger);
    try {
      await runStartupTasks(next);
      await vi.waitFor(async () => expect(await thumbnailKeyInDb(id)).not.toBeNull(), RENDERED);
      expect(fs.existsSync(uploadPath(made.t.ctx.config, (await thumbnailKeyInDb(id))!))).toBe(true);
    } finally {
      await closeContext(next);
    }
  });
});
