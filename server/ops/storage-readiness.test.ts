import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeImage } from "../attachments/test-fixtures";
import { createTestApp, createUser, type TestApp, type TestUser } from "../test/harness";
import { insertProjectRow } from "../test/rows";
import { startS3Server, type TestS3Server } from "../test/s3-server";

let s3: TestS3Server;
let t: TestApp;
let staff: TestUser;
/** Until a test stops it to take the bucket down. */
let s3Running = false;

beforeAll(async () => {
  s3 = await startS3Server();
  s3Running = true;
  t = await createTestApp(s3.env("readiness/"));
  staff = await createUser(t.ctx);
});
afterAll(async () => {
  await t?.close();
  if (s3Running) await s3.stop();
});

const space = { freeBytes: expect.any(Number), totalBytes: expect.any(Number) };

describe("in object storage (STORAGE_URL)", () => {
  it("/readyz checks the bucket and the temp folder, and gives no disk figure as if the disk held the photos", async () => {
    const res = await request(t.app).get("/readyz");
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      status: "ok",
      checks: { database: "ok", storage: "ok", temp: "ok" },
      disk: { temp: space },
    });
  });

  it("the dashboard names the bucket and reports what is kept there, with no local disk's free space", async () => {
    const id = await insertProjectRow(t.ctx);
    const jpeg = await makeImage("jpeg", 80, 60);
    const upload = await request(t.app)
      .post(`/api/attachments/projects/${id}/upload`)
      .set(staff.auth)
      .attach("file", jpeg, "a.jpg");
    expect(upload.status).toBe(201);

    const { body } = await request(t.app).get("/api/dashboard/stats").set(staff.auth).expect(200);
    expect(body.location).toEqual({ kind: "bucket", bucket: s3.bucket });
    expect(body.totalFileSize).toBe(jpeg.length);
    expect(body).not.toHaveProperty("storage");
    expect(body.diskUsage).toEqual({ used: 0, total: 0, percentage: 0 });
  });

  it("/readyz answers 503 naming the storage once the bucket is down (file routes fail meanwhile), /healthz stays 200", async () => {
    const id = await insertProjectRow(t.ctx);
    const upload = await request(t.app)
      .post(`/api/attachments/projects/${id}/upload`)
      .set(staff.auth)
      .attach("file", await makeImage("jpeg", 40, 30), "b.jpg");
    expect(upload.status).toBe(201);
    const view = `/api/attachments/${upload.body.id}/view`;
    expect((await request(t.app).get(view).set(staff.auth)).status).toBe(200);

    await s3.stop();
    s3Running = false;
    expect((await request(t.app).get(view).set(staff.auth)).status).toBe(500);
    const started = Date.now();
    const res = await request(t.app).get("/readyz");
    expect(Date.now() - started).toBeLessThan(3000);
    expect(res.status).toBe(503);
    expect(res.body.status).toBe("unavailable");
    expect(res.body.checks).toEqual({
      database: "ok",
      storage: expect.stringMatching(/^bucket unreachable \(/),
      temp: "ok",
    });
    expect(JSON.stringify(res.body)).not.toContain(s3.endpoint);
    expect(JSON.stringify(res.body)).not.toContain("127.0.0.1");
    expect((await request(t.app).get("/healthz")).status).toBe(200);
  });
});
