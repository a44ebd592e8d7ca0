import crypto from "node:crypto";
import fs from "node:fs";
import request from "supertest";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, createUser, type TestApp, type TestUser } from "../test/harness";
import { insertProjectRow, markPublishedRow } from "../test/rows";
import { storesOf } from "../storage/stores";
import { isStored, storedUploads } from "../test/stored-files";
import { inObjectStorage } from "../test/test-storage";
import { PART_SIZE } from "../storage/s3-store";
import { cookiesOf } from "./test-fixtures";
import { getBinary } from "../test/binary-body";

// Runs on the folders under `npm test` and against an S3 protocol server under `npm run test:s3`:
// photos uploaded through the API, then served by the staff routes and the delivery page from
// wherever they are stored, and removed from there with their photo or project.
let t: TestApp;
let staff: TestUser;
let projectId: number;
let token: string;
let big: Buffer;
let small: Buffer;
let ids: number[];

/** A PNG of noise, stored uncompressed: `side`² × 3 bytes, past one multipart part at 1700 px. */
const noisyPng = (side: number) =>
  sharp(crypto.randomBytes(side * side * 3), { raw: { width: side, height: side, channels: 3 } })
    .png({ compressionLevel: 0 })
    .toBuffer();

const upload = async (project: number, bytes: Buffer, name: string) => {
  const res = await request(t.app)
    .post(`/api/attachments/projects/${project}/upload`)
    .set(staff.auth)
    .attach("file", bytes, name);
  expect(res.status).toBe(201);
  return res.body as { id: number; checksum: string };
};
const get = (url: string, headers: Record<string, string> = {}) => getBinary(t.app, url, headers);

beforeAll(async () => {
  t = await createTestApp({ MAX_UPLOAD_BYTES: String(16 * 1024 * 1024) });
  staff = await createUser(t.ctx);
  [big, small] = await Promise.all([noisyPng(1700), noisyPng(300)]);
  expect(big.length).toBeGreaterThan(PART_SIZE);
  projectId = await insertProjectRow(t.ctx);
  ids = [(await upload(projectId, big, "big.png")).id, (await upload(projectId, small, "small.png")).id];
  token = await markPublishedRow(t.ctx, projectId);
}, 60_000);
afterAll(() => t?.close());

describe("photos in storage, through the staff routes", () => {
  it("answers a photo larger than one multipart part whole, by range, and 304 for its ETag", async () => {
    const url = `/api/attachments/${ids[0]}/download`;
    const whole = await get(url, staff.auth);
    expect(whole.status).toBe(200);
    expect(Number(whole.headers["content-length"])).toBe(big.length);
    expect((whole.body as Buffer).equals(big)).toBe(true);
    const etag = whole.headers.etag;
    expect(etag).toBe(`"${crypto.createHash("sha256").update(big).digest("hex")}"`);

    const part = await get(url, { ...staff.auth, Range: `bytes=${PART_SIZE - 5}-${PART_SIZE + 4}` });
    expect(part.status).toBe(206);
    expect(part.headers["content-range"]).toBe(`bytes ${PART_SIZE - 5}-${PART_SIZE + 4}/${big.length}`);
    expect((part.body as Buffer).equals(big.subarray(PART_SIZE - 5, PART_SIZE + 5))).toBe(true);

    expect((await get(url, { ...staff.auth, "If-None-Match": etag })).status).toBe(304);
    const past = await get(url, { ...staff.auth, Range: `bytes=${big.length + 10}-` });
    expect(past.status).toBe(416);
  });

  it("renders and serves the thumbnail and preview from the stored photo", async () => {
    const thumb = await get(`/api/attachments/${ids[0]}/thumbnail`, staff.auth);
    expect(thumb.status).toBe(200);
    expect(thumb.headers["content-type"]).toBe("image/webp");
    expect(await sharp(thumb.body as Buffer).metadata()).toMatchObject({ format: "webp", width: 400 });
    const preview = await get(`/api/attachments/${ids[1]}/preview`, staff.auth);
    expect(preview.status).toBe(200);
    expect(await sharp(preview.body as Buffer).metadata()).toMatchObject({ format: "jpeg", width: 300 });
  });
});

describe("photos in storage, through the delivery page", () => {
  it("serves photos, thumbnails and previews, with ranges", async () => {
    const photo = await get(`/d/${token}/p/2`);
    expect(photo.status).toBe(200);
    expect((photo.body as Buffer).equals(small)).toBe(true);
    const range = await get(`/d/${token}/p/1`, { Range: "bytes=0-99" });
    expect(range.status).toBe(206);
    expect((range.body as Buffer).equals(big.subarray(0, 100))).toBe(true);
    expect((await get(`/d/${token}/t/1`)).headers["content-type"]).toBe("image/webp");
    expect((await get(`/d/${token}/v/1`)).headers["content-type"]).toBe("image/jpeg");
  });

  it("asks for the passcode before any photo, and serves them with its cookie", async () => {
    const settings = await request(t.app)
      .put(`/api/projects/${projectId}/delivery`)
      .set(staff.auth)
      .send({ passcode: "open sesame" });
    expect(settings.status).toBe(200);
    expect((await get(`/d/${token}/p/1`)).status).toBe(401);
    expect((await get(`/d/${token}/t/1`)).status).toBe(401);
    const unlocked = await request(t.app).post(`/d/${token}/unlock`).type("form").send({ passcode: "open sesame" });
    const cookie = cookiesOf(unlocked);
    const photo = await get(`/d/${token}/p/2`, { Cookie: cookie });
    expect(photo.status).toBe(200);
    expect((photo.body as Buffer).equals(small)).toBe(true);
  });

  it("answers 410 for every photo once the link has expired", async () => {
    await t.ctx
      .db("projects")
      .where({ id: projectId })
      .update({ delivery_expires_at: new Date(Date.now() - 1000).toISOString() });
    t.ctx.events.resourceChanged({ resource: "projects", type: "updated", ids: [projectId] });
    for (const url of [`/d/${token}/p/1`, `/d/${token}/t/1`, `/d/${token}/v/1`])
      expect((await get(url)).status, url).toBe(410);
  });
});

describe("where the photos are", () => {
  it("records each uploaded photo's SHA-256 with its object in the bucket (a backup reads it there)", async () => {
    const row = await t.ctx.db("attachments").where({ id: ids[1] }).first("storage_key", "checksum");
    const stat = await storesOf(t.ctx.config).uploads.stat(row.storage_key);
    expect(stat?.sha256).toBe(inObjectStorage() ? row.checksum : undefined);
    expect(row.checksum).toBe(crypto.createHash("sha256").update(small).digest("hex"));
  });

  it("keeps none of them under UPLOADS_DIR in object storage, only in the bucket", async () => {
    const local = fs.readdirSync(t.ctx.config.uploadsDir).filter((name) => name !== ".tmp");
    expect(local).toEqual(inObjectStorage() ? [] : [String(projectId)]);
    expect((await storedUploads(t.ctx)).filter((k) => k.startsWith(`${projectId}/`)).length).toBeGreaterThanOrEqual(4);
  });
});

describe("deleting photos in storage", () => {
  it("removes a deleted photo's files, then the rest of its project's with the project", async () => {
    const project = await insertProjectRow(t.ctx);
    const [a, b] = [await upload(project, small, "a.png"), await upload(project, small, "b.png")];
    await get(`/api/attachments/${a.id}/preview`, staff.auth);
    const keysOf = async () => (await storedUploads(t.ctx)).filter((k) => k.startsWith(`${project}/`));
    const before = await keysOf();
    expect(before.length).toBeGreaterThanOrEqual(4);

    expect((await request(t.app).delete(`/api/attachments/${a.id}`).set(staff.auth)).status).toBe(204);
    const row = await t.ctx.db("attachments").where({ id: b.id }).first();
    expect(await isStored(t.ctx, row.storage_key)).toBe(true);
    expect((await keysOf()).length).toBeLessThan(before.length);

    expect((await request(t.app).delete(`/api/projects/${project}`).set(staff.auth)).status).toBe(204);
    expect(await keysOf()).toEqual([]);
    expect(await isStored(t.ctx, row.storage_key)).toBe(false);
  });
});
