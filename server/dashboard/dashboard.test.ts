import fs from "node:fs";
import path from "node:path";
import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { nowIso } from "../db/database";
import { createTestApp, createUser, type TestApp, type TestUser } from "../test/harness";
import { makeImage } from "../attachments/test-fixtures";
import { insertProjectRow } from "../test/rows";
import { addPhoto, projectRow, recordPublishEvents } from "../publish/test-fixtures";

const gb = 1024 ** 3;

let t: TestApp;
let user: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  user = await createUser(t.ctx);
});
afterAll(async () => {
  await t.close();
});

const stats = () => request(t.app).get("/api/dashboard/stats").set(user.auth);

describe("dashboard stats", () => {
  it("counts nothing in an empty database", async () => {
    const res = await stats();
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ clientCount: 0, projectCount: 0, attachmentCount: 0, totalFileSize: 0 });
  });

  it("counts clients, projects and attachments and sums their sizes", async () => {
    await t.ctx.db("clients").insert([
      { name: "Ada", created_at: nowIso(), updated_at: nowIso() },
      { name: "Bo", created_at: nowIso(), updated_at: nowIso() },
    ]);
    const first = await insertProjectRow(t.ctx);
    await insertProjectRow(t.ctx);
    await insertProjectRow(t.ctx, { publishStatus: "published" });
    const jpeg = await makeImage("jpeg", 80, 60);
    const png = await makeImage("png", 30, 30);
    const upload = await request(t.app)
      .post(`/api/attachments/projects/${first}/upload-multiple`)
      .set(user.auth)
      .attach("files", jpeg, "a.jpg")
      .attach("files", png, "b.png");
    expect(upload.status).toBe(201);

    const res = await stats();
    expect(res.body).toMatchObject({
      clientCount: 2,
      projectCount: 3,
      attachmentCount: 2,
      totalFileSize: jpeg.length + png.length,
    });
  });

  it("adds up photos and published ZIPs from kept totals, and the free space of UPLOADS_DIR's volume", async () => {
    const id = await insertProjectRow(t.ctx, { name: "Storage figures" });
    const photos = [await addPhoto(t.ctx, id, "a.jpg"), await addPhoto(t.ctx, id, "b.jpg", 120)];
    const events = recordPublishEvents(t.ctx, id);
    expect((await request(t.app).post(`/api/projects/${id}/publish`).set(user.auth)).status).toBe(202);
    await events.next("publish_completed");
    const zip = fs.statSync(
      path.join(t.ctx.config.publishedDir, path.basename((await projectRow(t.ctx, id)).published_zip_path)),
    );

    const { body } = await stats();
    const sizes = await t.ctx.db("attachments").sum({ bytes: "size" }).first();
    expect(body.storage.photosBytes).toBe(Number(sizes?.bytes));
    expect(body.totalFileSize).toBe(body.storage.photosBytes);
    expect(photos.every((p) => p.bytes.length > 0)).toBe(true);
    expect(body.storage.zipsBytes).toBe(zip.size);
    // Free space moves with every other test writing on this machine: read it around the call.
    const s = fs.statfsSync(t.ctx.config.uploadsDir);
    expect(body.storage.totalBytes).toBe(s.blocks * s.bsize);
    expect(Math.abs(body.storage.freeBytes - s.bavail * s.bsize)).toBeLessThan(1e9);

    expect(body.location).toEqual({ kind: "disk" });
    const used = body.storage.photosBytes + body.storage.zipsBytes;
    const total = used + body.storage.freeBytes;
    expect(body.diskUsage).toEqual({
      used: Math.round((used / gb) * 100) / 100,
      total: Math.round((total / gb) * 100) / 100,
      percentage: Math.round((used / total) * 1000) / 10,
    });
  });

  it("stops counting a ZIP once its project is unpublished", async () => {
    const before = (await stats()).body.storage.zipsBytes;
    // The project the test before published through the API: its ZIP has a recorded size.
    const published = await t.ctx
      .db("projects")
      .where({ publish_status: "published" })
      .whereNotNull("published_zip_size")
      .first("id", "published_zip_size");
    expect(Number(published.published_zip_size)).toBeGreaterThan(0);
    expect(before).toBeGreaterThanOrEqual(Number(published.published_zip_size));
    expect((await request(t.app).delete(`/api/projects/${published.id}/publish`).set(user.auth)).status).toBe(200);
    expect((await stats()).body.storage.zipsBytes).toBe(before - Number(published.published_zip_size));
  });

  it("needs an approved user", async () => {
    expect((await request(t.app).get("/api/dashboard/stats")).status).toBe(401);
    const pending = await createUser(t.ctx, { hasAccess: false });
    expect((await request(t.app).get("/api/dashboard/stats").set(pending.auth)).status).toBe(403);
  });
});
