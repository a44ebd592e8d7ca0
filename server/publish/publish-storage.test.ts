import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeNoisyJpeg } from "../attachments/test-fixtures";
import { cookiesOf } from "../delivery/test-fixtures";
import { getBinary } from "../test/binary-body";
import { createTestApp, createUser, type TestApp, type TestUser } from "../test/harness";
import { insertProjectRow } from "../test/rows";
import { startS3Server, type TestS3Server } from "../test/s3-server";
import { readAll } from "../storage/object-store";
import { PART_SIZE } from "../storage/s3-store";
import { storesOf } from "../storage/stores";
import { loadS3Sdk, s3ClientFor } from "../storage/s3-client";
import { publishedKeys, writeStored } from "../test/stored-files";
import { sweepAbandonedUploads } from "./upload-sweep";
import { recoverInterruptedPublishes } from "./recovery";
import { reapAbandonedBuilds } from "./publish-lease";
import { projectRow, readZip, recordPublishEvents, unzipTest } from "./test-fixtures";
import { publishQueue } from "./publish-job";

let s3: TestS3Server;
let t: TestApp;
let staff: TestUser;
let scratch: string;
/** Three photos of noise, larger together than one part of a multipart upload. */
let photos: Buffer[];

beforeAll(async () => {
  s3 = await startS3Server();
  t = await createTestApp({ ...s3.env("publish/"), MAX_UPLOAD_BYTES: String(32 * 1024 * 1024) });
  staff = await createUser(t.ctx);
  scratch = fs.mkdtempSync(path.join(os.tmpdir(), "photodrop-s3-zip-"));
  photos = await Promise.all([1, 2, 3].map(() => makeNoisyJpeg(3000, 2000)));
});
afterAll(async () => {
  await t?.close();
  await s3?.stop();
  if (scratch) fs.rmSync(scratch, { recursive: true, force: true });
});

const published = () => storesOf(t.ctx.config).published;

/** The AWS SDK on the test app's bucket, to arrange what a process that died would have left there. */
async function bucketClient() {
  const storage = t.ctx.config.storage;
  if (storage.kind !== "s3") throw new Error("the test app is not in object storage");
  const sdk = await loadS3Sdk();
  return { bucket: storage.bucket, client: s3ClientFor(sdk, storage), sdk };
}

async function projectWithPhotos(name: string): Promise<number> {
  const id = await insertProjectRow(t.ctx, { name });
  for (const [i, photo] of photos.entries()) {
    const upload = await request(t.app)
      .post(`/api/attachments/projects/${id}/upload`)
      .set(staff.auth)
      .attach("file", photo, `photo-${i + 1}.jpg`);
    expect(upload.status).toBe(201);
  }
  return id;
}

describe("publishing with object storage", () => {
  let id: number;
  let token: string;
  let zipKey: string;
  let zip: Buffer;

  beforeAll(async () => {
    expect(photos.reduce((sum, p) => sum + p.length, 0)).toBeGreaterThan(PART_SIZE);
    id = await projectWithPhotos("Bucket wedding");
    const events = recordPublishEvents(t.ctx, id);
    expect((await request(t.app).post(`/api/projects/${id}/publish`).set(staff.auth)).status).toBe(202);
    await events.next("publish_completed");
    expect(events.events.filter((e) => e.type === "publish_progress").length).toBeGreaterThan(0);
    events.stop();
    const row = await projectRow(t.ctx, id);
    zipKey = path.basename(row.published_zip_path);
    token = zipKey.replace(/\.zip$/, "");
    zip = await readAll(await published().get(zipKey));
  });

  it("builds the ZIP in the bucket as one object, recorded under the same name as on disk, with nothing in PUBLISHED_DIR", async () => {
    const row = await projectRow(t.ctx, id);
    expect(row.publish_status).toBe("published");
    expect(row.published_zip_path).toMatch(/^published\/[A-Za-z0-9_-]{22}\.zip$/);
    expect(await publishedKeys(t.ctx)).toEqual([zipKey]);
    expect((await published().stat(zipKey))?.size).toBe(zip.length);
    expect(zip.length).toBeGreaterThan(PART_SIZE);
    expect(fs.readdirSync(t.ctx.config.publishedDir)).toEqual([]);
  });

  it("serves all.zip whole, which unzip -t finds sound, with the photos under their names", async () => {
    const res = await getBinary(t.app, `/d/${token}/all.zip`);
    expect(res.status).toBe(200);
    expect(res.headers["content-type"]).toBe("application/zip");
    expect(res.headers["content-length"]).toBe(String(zip.length));
    expect(res.headers.etag).toBeTruthy();
    const file = path.join(scratch, "all.zip");
    fs.writeFileSync(file, res.body as Buffer);
    expect(await unzipTest(file)).toMatch(/No errors detected/);
    const entries = await readZip(file);
    expect(entries.map((e) => e.name)).toEqual(["photo-1.jpg", "photo-2.jpg", "photo-3.jpg"]);
    entries.forEach((e, i) => expect(e.content.equals(photos[i])).toBe(true));
  });

  it("answers a byte range with 206 and those bytes, and a matching ETag with 304", async () => {
    const res = await getBinary(t.app, `/d/${token}/all.zip`, { Range: `bytes=${PART_SIZE - 10}-${PART_SIZE + 9}` });
    expect(res.status).toBe(206);
    expect(res.headers["content-range"]).toBe(`bytes ${PART_SIZE - 10}-${PART_SIZE + 9}/${zip.length}`);
    expect((res.body as Buffer).equals(zip.subarray(PART_SIZE - 10, PART_SIZE + 10))).toBe(true);
    const again = await request(t.app).get(`/published/${zipKey}`).set("If-None-Match", res.headers.etag);
    expect(again.status).toBe(304);
  });

  it("asks for the passcode before the ZIP, then serves it", async () => {
    const settings = await request(t.app)
      .put(`/api/projects/${id}/delivery`)
      .set(staff.auth)
      .send({ passcode: "open sesame" });
    expect(settings.status).toBe(200);
    expect((await request(t.app).get(`/d/${token}/all.zip`)).status).toBe(401);
    const unlocked = await request(t.app).post(`/d/${token}/unlock`).type("form").send({ passcode: "open sesame" });
    const cookie = cookiesOf(unlocked);
    expect(cookie).not.toBe("");
    const res = await getBinary(t.app, `/d/${token}/all.zip`, { Cookie: cookie, Range: "bytes=0-3" });
    expect(res.status).toBe(206);
    expect((res.body as Buffer).toString("latin1")).toBe("PK\u0003\u0004");
    await request(t.app).put(`/api/projects/${id}/delivery`).set(staff.auth).send({ passcode: null });
  });

  it("moves the ZIP to the new name on regenerate; the old link answers 404", async () => {
    const res = await request(t.app).post(`/api/projects/${id}/delivery/regenerate`).set(staff.auth);
    expect(res.status).toBe(200);
    const row = await projectRow(t.ctx, id);
    const newKey = path.basename(row.published_zip_path);
    expect(newKey).not.toBe(zipKey);
    expect(await publishedKeys(t.ctx)).toEqual([newKey]);
    expect((await request(t.app).get(`/d/${token}/all.zip`)).status).toBe(404);
    const moved = await getBinary(t.app, `/published/${newKey}`);
    expect((moved.body as Buffer).equals(zip)).toBe(true);
    zipKey = newKey;
    token = newKey.replace(/\.zip$/, "");
  });

  it("removes the ZIP from the bucket on unpublish", async () => {
    expect((await request(t.app).delete(`/api/projects/${id}/publish`).set(staff.auth)).status).toBe(200);
    expect(await publishedKeys(t.ctx)).toEqual([]);
    expect((await request(t.app).get(`/d/${token}/all.zip`)).status).toBe(503);
  });

  it("publishes again under the same link: the build's object is moved onto the link's name, and nothing else is left", async () => {
    const events = recordPublishEvents(t.ctx, id);
    expect((await request(t.app).post(`/api/projects/${id}/publish`).set(staff.auth)).status).toBe(202);
    await events.next("publish_completed");
    events.stop();
    expect(path.basename((await projectRow(t.ctx, id)).published_zip_path)).toBe(zipKey);
    expect(await publishedKeys(t.ctx)).toEqual([zipKey]);
    const res = await getBinary(t.app, `/d/${token}/all.zip`);
    expect(res.status).toBe(200);
    expect((res.body as Buffer).length).toBe(zip.length);
    expect((await request(t.app).delete(`/api/projects/${id}/publish`).set(staff.auth)).status).toBe(200);
    expect(await publishedKeys(t.ctx)).toEqual([]);
  });

  it("leaves no object when a publish is cancelled mid-way", async () => {
    const other = await projectWithPhotos("Cancelled");
    const events = recordPublishEvents(t.ctx, other);
    const unpublished = new Promise<number>((resolve) => {
      const stop = t.ctx.events.onPublishEvent(({ projectId, type }) => {
        if (projectId !== other || type !== "publish_progress") return;
        stop();
        void request(t.app)
          .delete(`/api/projects/${other}/publish`)
          .set(staff.auth)
          .then((res) => resolve(res.status));
      });
    });
    expect((await request(t.app).post(`/api/projects/${other}/publish`).set(staff.auth)).status).toBe(202);
    expect(await unpublished).toBe(200);
    // The cancelled build has ended: whatever it would still announce, it has announced.
    await publishQueue(t.ctx).idle();
    expect(events.events.map((e) => e.type)).not.toContain("publish_completed");
    expect((await projectRow(t.ctx, other)).publish_status).toBe("draft");
    expect(await publishedKeys(t.ctx)).toEqual([]);
    events.stop();
  });

  it("fails a publish whose photo is gone from the bucket, naming it, and leaves no object", async () => {
    const other = await projectWithPhotos("Missing photo");
    const last = await t.ctx.db("attachments").where({ project_id: other }).orderBy("id", "desc").first();
    await storesOf(t.ctx.config).uploads.remove(last.storage_key);
    const events = recordPublishEvents(t.ctx, other);
    expect((await request(t.app).post(`/api/projects/${other}/publish`).set(staff.auth)).status).toBe(202);
    const failed = await events.next("publish_failed");
    events.stop();
    expect(failed.data.error).toBe("Attachment file is missing: photo-3.jpg");
    expect((await projectRow(t.ctx, other)).publish_status).toBe("failed");
    expect(await publishedKeys(t.ctx)).toEqual([]);
  });

  it("at start, fails interrupted builds and removes the ZIPs in the bucket no project names, keeping the published ones", async () => {
    const [kept, stray, interrupted] = ["K", "S", "I"].map((letter) => `${letter.repeat(22)}.zip`);
    await insertProjectRow(t.ctx, { name: "Kept", publishStatus: "published", publishedZipPath: `published/${kept}` });
    const building = await insertProjectRow(t.ctx, { name: "Interrupted" });
    await t.ctx
      .db("projects")
      .where({ id: building })
      .update({ publish_status: "publishing", publish_file: interrupted });
    for (const key of [kept, stray, stray.replace(".zip", "-web.zip"), interrupted])
      await writeStored(t.ctx, key, "PK", "published");

    await recoverInterruptedPublishes(t.ctx);

    expect(await publishedKeys(t.ctx)).toEqual([kept]);
    expect((await projectRow(t.ctx, building)).publish_status).toBe("failed");
    await published().remove(kept);
  });

  it("removes the ZIPs of a build whose lease ran out from the bucket", async () => {
    const zip = `${"L".repeat(22)}.zip`;
    const id = await insertProjectRow(t.ctx, { name: "Abandoned" });
    await t.ctx
      .db("projects")
      .where({ id })
      .update({
        publish_status: "publishing",
        publish_build_id: "their-build",
        publish_lease_expires_at: new Date(Date.now() - 60_000).toISOString(),
        publish_file: zip,
      });
    await writeStored(t.ctx, zip, "PK", "published");
    await writeStored(t.ctx, zip.replace(".zip", "-web.zip"), "PK", "published");

    expect((await reapAbandonedBuilds(t.ctx)).map((b) => b.id)).toEqual([id]);

    expect(await publishedKeys(t.ctx)).toEqual([]);
    expect((await projectRow(t.ctx, id)).publish_status).toBe("failed");
  });

  it("streams the ZIP from the bucket with SENDFILE_HEADER set: only files on disk go to the proxy", async () => {
    const proxied = await createTestApp({ ...s3.env("proxied/"), SENDFILE_HEADER: "X-Accel-Redirect" });
    try {
      const user = await createUser(proxied.ctx);
      const other = await insertProjectRow(proxied.ctx, { name: "Proxied" });
      const upload = await request(proxied.app)
        .post(`/api/attachments/projects/${other}/upload`)
        .set(user.auth)
        .attach("file", photos[0], "one.jpg");
      expect(upload.status).toBe(201);
      const events = recordPublishEvents(proxied.ctx, other);
      expect((await request(proxied.app).post(`/api/projects/${other}/publish`).set(user.auth)).status).toBe(202);
      await events.next("publish_completed");
      events.stop();
      const key = path.basename((await projectRow(proxied.ctx, other)).published_zip_path);
      const res = await getBinary(proxied.app, `/published/${key}`);
      expect(res.status).toBe(200);
      expect(res.headers["x-accel-redirect"]).toBeUndefined();
      expect((res.body as Buffer).equals(await readAll(await storesOf(proxied.ctx.config).published.get(key)))).toBe(
        true,
      );
    } finally {
      await proxied.close();
    }
  });

  it("sweeps the unfinished uploads a stopped process left: old and named by no project, not a live build's", async () => {
    const { bucket, client, sdk } = await bucketClient();
    const begin = async (key: string) => {
      const { UploadId } = await client.send(new sdk.CreateMultipartUploadCommand({ Bucket: bucket, Key: key }));
      await client.send(
        new sdk.UploadPartCommand({ Bucket: bucket, Key: key, UploadId, PartNumber: 1, Body: Buffer.alloc(1024) }),
      );
    };
    const live = await insertProjectRow(t.ctx, { name: "Still building" });
    await t.ctx.db("projects").where({ id: live }).update({ publish_status: "publishing", publish_file: "live.zip" });
    await begin("publish/published/abandoned.zip");
    await begin("publish/published/live.zip");
    await begin("publish/uploads/1/abandoned-photo.jpg");
    expect(s3.uploadsInProgress()).toHaveLength(3);

    // Just begun: nothing is old enough yet.
    expect(await sweepAbandonedUploads(t.ctx)).toEqual({ aborted: 0 });
    // Past twice the lease, the ZIP no project names goes; past an hour, the photo's too.
    const later = Date.now() + t.ctx.config.publishLeaseSeconds * 2000 + 1000;
    expect(await sweepAbandonedUploads(t.ctx, later)).toEqual({ aborted: 1 });
    expect(s3.uploadsInProgress().sort()).toEqual([
      "publish/published/live.zip",
      "publish/uploads/1/abandoned-photo.jpg",
    ]);
    expect(await sweepAbandonedUploads(t.ctx, Date.now() + 3_600_000 + 1000)).toEqual({ aborted: 1 });
    expect(s3.uploadsInProgress()).toEqual(["publish/published/live.zip"]);
    await t.ctx.db("projects").where({ id: live }).delete();
    client.destroy();
  });
});
