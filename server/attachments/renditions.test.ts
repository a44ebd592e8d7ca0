import request from "supertest";
import sharp from "sharp";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { closeContext, createContext } from "../bootstrap";
import { runStartupTasks } from "../startup";
import { RENDITIONS } from "../storage/image-files";
import { appWithUser } from "../test/app-with-user";
import { insertProjectRow } from "../test/rows";
import { makeNoisyJpeg } from "./test-fixtures";
import { renditionQueue } from "./renditions.service";
import { isStored, readStored, removeStored, storedUploads } from "../test/stored-files";

/**
 * Thumbnails after upload, and what thumbnails and previews do alike: made at start, gone with
 * their photo, 404 when they cannot be made.
 */
const made = appWithUser({}, { captureLog: true });
let projectId: number;

beforeEach(async () => {
  projectId = await insertProjectRow(made.t.ctx);
});

const RENDERED = { timeout: 15_000, interval: 100 };
const COLUMNS = { thumbnail: "thumbnail_key", preview: "preview_key" } as const;
const NOT_FOUND = { thumbnail: "Thumbnail not found", preview: "Preview not found" } as const;

async function uploadPhoto(): Promise<{ id: number; thumbnailUrl: string; previewUrl: string }> {
  const res = await request(made.t.app)
    .post(`/api/attachments/projects/${projectId}/upload`)
    .set(made.user.auth)
    .attach("file", await makeNoisyJpeg(1200, 900), "photo.jpg");
  expect(res.status).toBe(201);
  return res.body;
}

const keyInDb = async (rendition: (typeof RENDITIONS)[number], id: number): Promise<string | null> =>
  (await made.t.ctx.db("attachments").where({ id }).first(COLUMNS[rendition]))?.[COLUMNS[rendition]] ?? null;
const projectFiles = async () => (await storedUploads(made.t.ctx)).filter((f) => f.startsWith(`${projectId}/`));
const thumbnailFiles = async () => (await projectFiles()).filter((f) => f.endsWith(".thumb.webp"));

describe("thumbnails of photos proven whole without a decode", () => {
  it("answers the upload before rendering the thumbnail, then renders it once no upload is under way", async () => {
    const { id } = await uploadPhoto();
    expect(await keyInDb("thumbnail", id)).toBeNull();
    expect(await projectFiles()).toHaveLength(1);
    await vi.waitFor(async () => expect(await keyInDb("thumbnail", id)).not.toBeNull(), RENDERED);
    const thumb = await sharp(await readStored(made.t.ctx, (await keyInDb("thumbnail", id))!)).metadata();
    expect([thumb.format, thumb.width, thumb.height]).toEqual(["webp", 400, 300]);
    expect(await thumbnailFiles()).toHaveLength(1);
  });

  it("renders one asked for before then at once, and serves that same one afterwards", async () => {
    const { id, thumbnailUrl } = await uploadPhoto();
    const first = await request(made.t.app).get(thumbnailUrl);
    expect([first.status, first.type]).toEqual([200, "image/webp"]);
    const key = await keyInDb("thumbnail", id);
    expect(key).not.toBeNull();
    const again = await request(made.t.app).get(thumbnailUrl);
    expect(Buffer.compare(again.body as Buffer, first.body as Buffer)).toBe(0);
    expect(await keyInDb("thumbnail", id)).toBe(key);
    expect(await thumbnailFiles()).toHaveLength(1);
  });
});

describe.each(RENDITIONS)("the %s of a stored photo", (rendition) => {
  const urlOf = (photo: { thumbnailUrl: string; previewUrl: string }) =>
    rendition === "thumbnail" ? photo.thumbnailUrl : photo.previewUrl;

  it("is not left behind by a photo deleted before its render", async () => {
    const { id } = await uploadPhoto();
    expect((await request(made.t.app).delete(`/api/attachments/${id}`).set(made.user.auth)).status).toBe(204);
    const queue = renditionQueue(made.t.ctx);
    expect(await queue.renderNow(rendition, id)).toBeNull();
    // The other rendition, queued at upload, is taken up in idle time and may have begun before the
    // delete: once nothing waits, renderNow joins a render under way, so every render has ended here.
    await vi.waitFor(() => expect(RENDITIONS.map((r) => queue.waitingOf(r))).toEqual([0, 0]), RENDERED);
    for (const each of RENDITIONS) expect(await queue.renderNow(each, id)).toBeNull();
    expect(await projectFiles()).toEqual([]);
    expect((await storedUploads(made.t.ctx)).filter((f) => f.startsWith(".tmp/"))).toEqual([]);
  });

  it("answers 404 when the photo cannot be rendered, and logs why", async () => {
    const done = renditionQueue(made.t.ctx).uploadStarted();
    try {
      const photo = await uploadPhoto();
      const row = await made.t.ctx.db("attachments").where({ id: photo.id }).first("storage_key");
      await removeStored(made.t.ctx, row.storage_key);
      const res = await request(made.t.app).get(urlOf(photo));
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ statusCode: 404, message: NOT_FOUND[rendition] });
      const lines = made.t.logLines.map((l) => JSON.parse(l)).filter((l) => l.attachmentId === photo.id);
      expect(lines.find((l) => l.msg === `could not render ${rendition}`)).toMatchObject({ level: 40 });
    } finally {
      done();
    }
  });

  it("is rendered at start for a photo stored without one (a stopped process, or one from before previews)", async () => {
    const photo = await uploadPhoto();
    expect((await request(made.t.app).get(urlOf(photo))).status).toBe(200);
    await removeStored(made.t.ctx, (await keyInDb(rendition, photo.id))!);
    await made.t.ctx
      .db("attachments")
      .where({ id: photo.id })
      .update({ [COLUMNS[rendition]]: null });

    const next = await createContext(made.t.ctx.config, made.t.ctx.logger);
    try {
      await runStartupTasks(next);
      await vi.waitFor(async () => expect(await keyInDb(rendition, photo.id)).not.toBeNull(), RENDERED);
      expect(await isStored(made.t.ctx, (await keyInDb(rendition, photo.id))!)).toBe(true);
    } finally {
      await closeContext(next);
    }
  });
});
