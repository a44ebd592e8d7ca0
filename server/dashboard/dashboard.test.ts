import fs from "node:fs";
import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { nowIso } from "../db/database";
import { createTestApp, createUser, type TestApp, type TestUser } from "../test/harness";
import { makeImage } from "../attachments/test-fixtures";
import { insertProjectRow } from "../test/rows";

let t: TestApp;
let user: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  user = await createUser(t.ctx);
});
afterAll(() => t.close());

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

  it("reports the disk holding UPLOADS_DIR in GB", async () => {
    const res = await stats();
    const s = fs.statfsSync(t.ctx.config.uploadsDir);
    const gb = 1024 ** 3;
    const { used, total, percentage } = res.body.diskUsage;
    expect(total).toBeCloseTo((s.blocks * s.bsize) / gb, 2);
    expect(used).toBeGreaterThan(0);
    expect(used).toBeLessThanOrEqual(total);
    expect(Math.abs(used - ((s.blocks - s.bfree) * s.bsize) / gb)).toBeLessThan(0.5);
    expect(percentage).toBeCloseTo((used / total) * 100, 0);
    expect(Math.round(used * 100) / 100).toBe(used);
    expect(Math.round(percentage * 10) / 10).toBe(percentage);
  });

  it("needs an approved user", async () => {
    expect((await request(t.app).get("/api/dashboard/stats")).status).toBe(401);
    const pending = await createUser(t.ctx, { hasAccess: false });
    expect((await request(t.app).get("/api/dashboard/stats").set(pending.auth)).status).toBe(403);
  });
});
