import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeNoisyJpeg } from "../attachments/test-fixtures";
import { renditionQueue } from "../attachments/renditions.service";
import { getBinary } from "../test/binary-body";
import { DISK_FULL } from "../http/errors";
import { readZip } from "../publish/test-fixtures";
import { createTestApp, createUser, type TestApp, type TestUser } from "../test/harness";
import { mountSmallDisk, type SmallDisk } from "../test/small-disk";
import { until } from "../test/wait";

/**
 * The photo folders on a real 8 MB file system that fills up (tmpfs), the database elsewhere:
 * uploads past the space are said (507), never a 500, and leave nothing behind; what was stored
 * stays whole; /readyz and /metrics tell; publishing fails with its own message until photos go.
 */
let base: string;
let disk: SmallDisk;
let t: TestApp;
let staff: TestUser;
const METRICS_TOKEN = "metrics-secret-for-the-full-disk";

beforeAll(async () => {
  base = fs.mkdtempSync(path.join(os.tmpdir(), "photodrop-full-"));
  disk = mountSmallDisk(path.join(base, "disk"), 8);
  try {
    t = await createTestApp({
      UPLOADS_DIR: path.join(disk.dir, "uploads"),
      PUBLISHED_DIR: path.join(disk.dir, "published"),
      MIN_FREE_DISK_MB: "1",
      METRICS_TOKEN,
    });
    staff = await createUser(t.ctx);
  } catch (err) {
    disk.unmount();
    throw err;
  }
});

afterAll(async () => {
  await t?.close();
  disk?.unmount();
  fs.rmSync(base, { recursive: true, force: true });
});

const upload = (projectId: number, photo: Buffer, name: string) =>
  request(t.app).post(`/api/attachments/projects/${projectId}/upload`).set(staff.auth).attach("file", photo, name);

const project = async (id: number) => (await request(t.app).get(`/api/projects/${id}`).set(staff.auth)).body;

async function publishAndWait(id: number) {
  expect((await request(t.app).post(`/api/projects/${id}/publish`).set(staff.auth)).status).toBe(202);
  return until(
    () => project(id),
    (p) => p.publishStatus !== "publishing",
    30_000,
  );
}

describe("photo folders on a disk that fills up", () => {
  it("answers 507 naming the disk, keeps every earlier photo whole, leaves nothing behind, and publishes again once photos go", async () => {
    const readyBefore = await request(t.app).get("/readyz");
    expect(readyBefore.status).toBe(200);
    expect(readyBefore.body.disk.uploads.totalBytes).toBe(8 * 1024 * 1024);

    // Previews wait while the disk is checked: one rendered meanwhile is written before its row says so.
    const rendersResume = renditionQueue(t.ctx).uploadStarted();
    const created = await request(t.app).post("/api/projects").set(staff.auth).send({ name: "Full Disk Wedding" });
    const id = created.body.id as number;
    const stored: Array<{ id: number; bytes: Buffer }> = [];
    let refused: request.Response | undefined;
    for (let i = 0; i < 40 && !refused; i++) {
      const photo = await makeNoisyJpeg(900 + i, 700);
      const res = await upload(id, photo, `photo-${i}.jpg`);
      if (res.status === 201) stored.push({ id: res.body.id, bytes: photo });
      else refused = res;
    }
    expect(stored.length).toBeGreaterThan(3);
    expect(refused?.status).toBe(507);
    expect(refused?.body).toEqual({ statusCode: 507, message: DISK_FULL });

    // Nothing half-written: no receive folder, no row, no stray file beside the photos recorded.
    await until(
      () => fs.readdirSync(path.join(t.ctx.config.uploadsDir, ".tmp")),
      (left) => left.length === 0,
    );
    const rows = await t.ctx.db("attachments").where({ project_id: id });
    expect(rows).toHaveLength(stored.length);
    const onDisk = fs.readdirSync(path.join(t.ctx.config.uploadsDir, String(id)));
    const recorded = new Set(rows.flatMap((r) => [r.storage_key, r.thumbnail_key, r.preview_key].filter(Boolean)));
    expect(onDisk.filter((f) => !recorded.has(`${id}/${f}`))).toEqual([]);
    rendersResume();
    for (const photo of stored) {
      const res = await getBinary(t.app, `/api/attachments/${photo.id}/download`, staff.auth);
      expect(res.status).toBe(200);
      expect((res.body as Buffer).equals(photo.bytes)).toBe(true);
    }

    const ready = await request(t.app).get("/readyz");
    expect(ready.status).toBe(503);
    expect(ready.body.status).toBe("unavailable");
    expect(ready.body.checks.uploads).toMatch(/^disk almost full \(0\.\d MB free\)$/);
    expect(ready.body.disk.uploads.freeBytes).toBeLessThan(1024 * 1024);
    const metrics = await request(t.app).get("/metrics").set("Authorization", `Bearer ${METRICS_TOKEN}`);
    const free = /^photodrop_disk_free_bytes\{folder="uploads"\} (\d+)$/m.exec(metrics.text);
    expect(Number(free?.[1])).toBe(ready.body.disk.uploads.freeBytes);
    expect(metrics.text).toMatch(/^photodrop_disk_total_bytes\{folder="published"\} 8388608$/m);
    expect(metrics.text).toMatch(/^photodrop_upload_refusals_total\{reason="disk_full"\} 1$/m);

    const failed = await publishAndWait(id);
    expect(failed.publishStatus).toBe("failed");
    expect(failed.publishError).toBe("Not enough disk space to build the ZIP");
    expect(fs.readdirSync(t.ctx.config.publishedDir)).toEqual([]);

    const kept = stored.slice(0, 2);
    const gone = stored.slice(2).map((p) => p.id);
    expect((await request(t.app).delete("/api/attachments").set(staff.auth).send({ ids: gone })).status).toBe(204);
    const published = await publishAndWait(id);
    expect(published.publishStatus).toBe("published");
    const zip = await readZip(path.join(t.ctx.config.publishedDir, path.basename(published.publishedZipPath)));
    expect(zip.map((e) => e.content)).toEqual(kept.map((p) => p.bytes));
    expect((await request(t.app).get("/readyz")).status).toBe(200);
  }, 120_000);
});
