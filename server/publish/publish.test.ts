import path from "node:path";
import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, createUser, type TestApp, type TestUser } from "../test/harness";
import { addPhoto, crc32, projectRow, readZip, recordPublishEvents, unzipTest } from "./test-fixtures";
import { insertClientRow, insertProjectRow } from "../test/rows";
import { publishQueue } from "./publish-job";
import { publishedKeys, publishedZipCopy, removeStored, writeStored } from "../test/stored-files";

let t: TestApp;
let staff: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  staff = await createUser(t.ctx);
});
afterAll(async () => {
  await t.close();
});

const publish = (id: number | string) => request(t.app).post(`/api/projects/${id}/publish`).set(staff.auth);
const unpublish = (id: number | string) => request(t.app).delete(`/api/projects/${id}/publish`).set(staff.auth);
const statusOf = (id: number) => projectRow(t.ctx, id).then((row) => row.publish_status as string);
const zipKeyOf = async (id: number) => path.basename((await projectRow(t.ctx, id)).published_zip_path);
/** The ZIP as a file yauzl and unzip can read (a copy under `npm run test:s3`). */
const zipFileOf = async (id: number) => publishedZipCopy(t.ctx, await zipKeyOf(id));

describe("POST /api/projects/:id/publish", () => {
  it("answers 202 with the project as publishing, then stores every attachment byte for byte in a ZIP", async () => {
    const clientId = await insertClientRow(t.ctx, "Acme");
    const id = await insertProjectRow(t.ctx, { name: "Summer shoot", clientId });
    const photos = [await addPhoto(t.ctx, id, "beach.jpg"), await addPhoto(t.ctx, id, "dunes.jpg", 200)];
    const events = recordPublishEvents(t.ctx, id);

    const res = await publish(id);

    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({
      id,
      name: "Summer shoot",
      clientId,
      client: { id: clientId, name: "Acme" },
      publishStatus: "publishing",
      publishedAt: null,
      publishedZipPath: null,
      downloadUrl: null,
      attachmentCount: 2,
      totalFileSize: photos[0].bytes.length + photos[1].bytes.length,
    });
    await events.next("publish_completed");
    const row = await projectRow(t.ctx, id);
    expect(row.publish_status).toBe("published");
    expect(row.publish_error).toBeNull();
    expect(new Date(row.published_at).getTime()).toBeGreaterThan(Date.now() - 60_000);
    expect(row.published_zip_path).toMatch(/^published\/[A-Za-z0-9_-]{22}\.zip$/);
    expect(await publishedKeys(t.ctx)).toEqual([path.basename(row.published_zip_path)]);

    const entries = await readZip(await zipFileOf(id));
    expect(entries.map((e) => e.name)).toEqual(["beach.jpg", "dunes.jpg"]);
    entries.forEach((entry, i) => {
      expect(entry.size).toBe(photos[i].bytes.length);
      expect(entry.crc32).toBe(crc32(photos[i].bytes));
      expect(entry.content.equals(photos[i].bytes)).toBe(true);
    });
    expect(await unzipTest(await zipFileOf(id))).toMatch(/No errors detected/);
  });

  it("names entries after the original names without folders, numbering clashes that differ only in case", async () => {
    const id = await insertProjectRow(t.ctx);
    const names = ["a.jpg", "A.JPG", "holiday/b.jpg", "C:\\Users\\me\\b.jpg", "a (1).jpg", "..", "noext", "NoExt"];
    for (const name of names) await addPhoto(t.ctx, id, name, 16);
    const events = recordPublishEvents(t.ctx, id);

    expect((await publish(id)).status).toBe(202);
    await events.next("publish_completed");

    const entries = await readZip(await zipFileOf(id));
    expect(entries.map((e) => e.name)).toEqual([
      "a.jpg",
      "A (2).JPG",
      "b.jpg",
      "b (1).jpg",
      "a (1).jpg",
      "photo-6.jpg",
      "noext",
      "NoExt (1)",
    ]);
    expect(await unzipTest(await zipFileOf(id))).toMatch(/No errors detected in compressed data/);
  });

  it("refuses an unknown project with 404 and a malformed id with 400", async () => {
    expect((await publish(999999)).body).toEqual({ statusCode: 404, message: "Project not found" });
    const bad = await publish("abc");
    expect(bad.status).toBe(400);
  });

  it("refuses a project without attachments with 400 and leaves it a draft", async () => {
    const id = await insertProjectRow(t.ctx);
    const res = await publish(id);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ statusCode: 400, message: "Project has no attachments" });
    expect(await statusOf(id)).toBe("draft");
  });

  it("refuses to publish a published project again with 409, keeping its ZIP", async () => {
    const id = await insertProjectRow(t.ctx);
    await addPhoto(t.ctx, id, "one.jpg");
    const events = recordPublishEvents(t.ctx, id);
    await publish(id);
    await events.next("publish_completed");
    const before = await projectRow(t.ctx, id);

    const res = await publish(id);

    expect(res.status).toBe(409);
    expect(res.body).toEqual({ statusCode: 409, message: "Project is already published" });
    expect(await projectRow(t.ctx, id)).toEqual(before);
    expect(await publishedKeys(t.ctx)).toContain(await zipKeyOf(id));
  });

  it("starts one build for two simultaneous calls: one 202, one 409", async () => {
    const id = await insertProjectRow(t.ctx);
    await addPhoto(t.ctx, id, "one.jpg");
    const events = recordPublishEvents(t.ctx, id);

    const answers = await Promise.all([publish(id), publish(id)]);

    expect(answers.map((a) => a.status).sort()).toEqual([202, 409]);
    await events.next("publish_completed");
    // No build is left running or waiting: a second one would have started by now.
    await publishQueue(t.ctx).idle();
    expect(events.events.filter((e) => e.type === "publish_started")).toHaveLength(1);
    expect(await statusOf(id)).toBe("published");
  });
});

describe("a build that fails", () => {
  it("marks the project failed with the reason, announces it, leaves no file, and can be published again", async () => {
    const id = await insertProjectRow(t.ctx);
    await addPhoto(t.ctx, id, "first.jpg", 300);
    const missing = await addPhoto(t.ctx, id, "second.jpg");
    await addPhoto(t.ctx, id, "third.jpg");
    await removeStored(t.ctx, missing.key);
    const before = await publishedKeys(t.ctx);
    const events = recordPublishEvents(t.ctx, id);

    expect((await publish(id)).status).toBe(202);
    const failed = await events.next("publish_failed");

    expect(failed.data).toEqual({ error: "Attachment file is missing: second.jpg" });
    const row = await projectRow(t.ctx, id);
    expect(row).toMatchObject({
      publish_status: "failed",
      publish_error: "Attachment file is missing: second.jpg",
      published_zip_path: null,
    });
    expect(await publishedKeys(t.ctx)).toEqual(before);
    expect(events.events.map((e) => e.type)).not.toContain("publish_completed");
    const shown = await request(t.app).get(`/api/projects/${id}`).set(staff.auth);
    expect(shown.body).toMatchObject({
      publishStatus: "failed",
      publishError: "Attachment file is missing: second.jpg",
    });

    await writeStored(t.ctx, missing.key, missing.bytes);
    const again = await publish(id);
    expect(again.status).toBe(202);
    expect(again.body.publishStatus).toBe("publishing");
    await events.next("publish_completed");
    expect(await projectRow(t.ctx, id)).toMatchObject({ publish_status: "published", publish_error: null });
    expect((await request(t.app).get(`/api/projects/${id}`).set(staff.auth)).body.publishError).toBeNull();
    expect((await readZip(await zipFileOf(id))).map((e) => e.name)).toEqual(["first.jpg", "second.jpg", "third.jpg"]);
  });
});

describe("DELETE /api/projects/:id/publish", () => {
  it("returns a published project to draft and deletes its ZIP, keeping the link's name for the next publish", async () => {
    const id = await insertProjectRow(t.ctx);
    await addPhoto(t.ctx, id, "one.jpg");
    const events = recordPublishEvents(t.ctx, id);
    await publish(id);
    await events.next("publish_completed");
    const zip = await zipKeyOf(id);

    const res = await unpublish(id);

    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id,
      publishStatus: "draft",
      publishedAt: null,
      publishedZipPath: `published/${zip}`,
      downloadUrl: null,
      deliveryUrl: null,
      attachmentCount: 1,
    });
    expect(await projectRow(t.ctx, id)).toMatchObject({
      publish_status: "draft",
      published_at: null,
      published_zip_path: `published/${zip}`,
      published_zip_size: null,
    });
    expect(await publishedKeys(t.ctx)).not.toContain(zip);
  });

  it("answers 404 for an unknown project and 200 for a draft, changing nothing", async () => {
    expect((await unpublish(999999)).status).toBe(404);
    const id = await insertProjectRow(t.ctx);
    const before = await projectRow(t.ctx, id);
    const res = await unpublish(id);
    expect(res.status).toBe(200);
    expect(res.body.publishStatus).toBe("draft");
    expect(await projectRow(t.ctx, id)).toEqual(before);
  });
});

describe("GET /api/projects/:id/download", () => {
  it("redirects to the public ZIP of a published project", async () => {
    const id = await insertProjectRow(t.ctx);
    await addPhoto(t.ctx, id, "one.jpg");
    const events = recordPublishEvents(t.ctx, id);
    await publish(id);
    await events.next("publish_completed");
    const row = await projectRow(t.ctx, id);

    const res = await request(t.app).get(`/api/projects/${id}/download`).set(staff.auth);

    expect(res.status).toBe(302);
    expect(res.headers.location).toBe(`/published/${path.basename(row.published_zip_path)}`);
  });

  it("answers 404 'Project is not published' for a draft, and 401 without a token", async () => {
    const id = await insertProjectRow(t.ctx);
    const res = await request(t.app).get(`/api/projects/${id}/download`).set(staff.auth);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ statusCode: 404, message: "Project is not published" });
    expect((await request(t.app).get(`/api/projects/${id}/download`)).status).toBe(401);
  });
});
