import crypto from "node:crypto";
import sharp from "sharp";
import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, createUser, type TestApp, type TestUser } from "../test/harness";
import { insertProjectRow, markPublishedRow } from "../test/rows";
import { startS3Server, type TestS3Server } from "../test/s3-server";
import { cookiesOf } from "../delivery/test-fixtures";
import { getBinary } from "../test/binary-body";
import { projectRow, recordPublishEvents } from "../publish/test-fixtures";
import { storesOf } from "./stores";

// S3_PRESIGNED_DOWNLOADS=1 against a real S3 protocol server (s3rver; it reads a presigned
// link's key and expiry but does not check V4 signatures): downloads are redirected to the bucket
// after the same checks; views, thumbnails and previews keep going through Photodrop.
let s3: TestS3Server;
let t: TestApp;
let staff: TestUser;
let photo: Buffer;
let attachmentId: number;
let projectId: number;
let token: string;

const get = (url: string, headers: Record<string, string> = {}) => getBinary(t.app, url, headers);

/** What the client's browser gets when it follows the redirect. */
async function follow(location: string) {
  const res = await fetch(location);
  return { status: res.status, headers: res.headers, body: Buffer.from(await res.arrayBuffer()) };
}

beforeAll(async () => {
  s3 = await startS3Server();
  t = await createTestApp(
    {
      ...s3.env(`presigned-${crypto.randomBytes(6).toString("hex")}`),
      S3_PRESIGNED_DOWNLOADS: "1",
      S3_PRESIGNED_SECONDS: "60",
    },
    { sqliteOnly: true },
  );
  staff = await createUser(t.ctx);
  photo = await sharp({ create: { width: 64, height: 48, channels: 3, background: { r: 200, g: 90, b: 20 } } })
    .jpeg()
    .toBuffer();
  projectId = await insertProjectRow(t.ctx);
  const uploaded = await request(t.app)
    .post(`/api/attachments/projects/${projectId}/upload`)
    .set(staff.auth)
    .attach("file", photo, "Café été.jpg");
  expect(uploaded.status).toBe(201);
  attachmentId = uploaded.body.id as number;
  token = await markPublishedRow(t.ctx, projectId);
}, 60_000);
afterAll(async () => {
  await t?.close();
  await s3?.stop();
});

describe("with S3_PRESIGNED_DOWNLOADS=1", () => {
  it("redirects a staff download to a short-lived signed link that serves the photo under its name", async () => {
    const res = await get(`/api/attachments/${attachmentId}/download`, staff.auth);
    expect(res.status).toBe(302);
    expect(res.headers["cache-control"]).toBe("no-store");
    expect(res.headers["content-disposition"]).toBeUndefined();
    const location = new URL(res.headers.location!);
    expect(location.origin).toBe(s3.endpoint);
    expect(location.searchParams.get("X-Amz-Expires")).toBe("60");
    expect(location.searchParams.get("X-Amz-Signature")).toMatch(/^[0-9a-f]{64}$/);

    const fetched = await follow(location.toString());
    expect(fetched.status).toBe(200);
    expect(fetched.body.equals(photo)).toBe(true);
    expect(fetched.headers.get("content-type")).toBe("image/jpeg");
    expect(fetched.headers.get("content-disposition")).toMatch(
      /^attachment; filename="Caf\? \?t\?\.jpg"; filename\*=UTF-8''Caf%C3%A9%20%C3%A9t%C3%A9\.jpg$/,
    );

    expect(location.searchParams.get("X-Amz-Credential")).toMatch(/^S3RVER\//);
  });

  it("checks access before any redirect, and keeps views and thumbnails on Photodrop", async () => {
    const anonymous = await get(`/api/attachments/${attachmentId}/download`);
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.location).toBeUndefined();
    const missing = await get(`/api/attachments/999999/download`, staff.auth);
    expect(missing.status).toBe(404);
    expect(missing.headers.location).toBeUndefined();

    const view = await get(`/api/attachments/${attachmentId}/view`, staff.auth);
    expect(view.status).toBe(200);
    expect((view.body as Buffer).equals(photo)).toBe(true);
    expect((await get(`/api/attachments/${attachmentId}/thumbnail`, staff.auth)).headers["content-type"]).toBe(
      "image/webp",
    );
  });

  it("answers 404, not a link to nothing, when the stored object is gone", async () => {
    const other = await request(t.app)
      .post(`/api/attachments/projects/${await insertProjectRow(t.ctx)}/upload`)
      .set(staff.auth)
      .attach(
        "file",
        await sharp({ create: { width: 20, height: 20, channels: 3, background: "#123456" } })
          .jpeg()
          .toBuffer(),
        "gone.jpg",
      );
    expect(other.status).toBe(201);
    const key = (await t.ctx.db("attachments").where({ id: other.body.id }).first("storage_key")).storage_key;
    await storesOf(t.ctx.config).uploads.remove(key);
    const res = await get(`/api/attachments/${other.body.id}/download`, staff.auth);
    expect(res.status).toBe(404);
    expect(res.body.toString()).toContain("Attachment file not found");
    await request(t.app).delete(`/api/attachments/${other.body.id}`).set(staff.auth);
  });

  it("redirects the delivery page's downloads after the passcode, and counts them as before", async () => {
    const download = await get(`/d/${token}/p/1/download`);
    expect(download.status).toBe(302);
    const fetched = await follow(download.headers.location!);
    expect(fetched.body.equals(photo)).toBe(true);
    expect(fetched.headers.get("content-disposition")).toMatch(/^attachment;/);
    const offered = await request(t.app)
      .put(`/api/projects/${projectId}/delivery`)
      .set(staff.auth)
      .send({ offerWebSize: true });
    expect(offered.status).toBe(200);
    const web = await get(`/d/${token}/v/1/download`);
    expect(web.status).toBe(302);
    const preview = await follow(web.headers.location!);
    expect(preview.headers.get("content-type")).toBe("image/jpeg");
    expect((await sharp(preview.body).metadata()).format).toBe("jpeg");
    // The gallery's own photo stays on Photodrop (the page's Content-Security-Policy is 'self').
    expect((await get(`/d/${token}/p/1`)).status).toBe(200);

    const downloads = async () =>
      Number(
        (
          await t.ctx.db("delivery_activity").where({ project_id: projectId, type: "photo_download" }).count({ n: "*" })
        )[0].n,
      );
    await expect.poll(downloads, { timeout: 10_000 }).toBe(2);

    await request(t.app).put(`/api/projects/${projectId}/delivery`).set(staff.auth).send({ passcode: "open sesame" });
    const locked = await get(`/d/${token}/p/1/download`);
    expect(locked.status).toBe(401);
    expect(locked.headers.location).toBeUndefined();
    const cookie = cookiesOf(
      await request(t.app).post(`/d/${token}/unlock`).type("form").send({ passcode: "open sesame" }),
    );
    expect((await get(`/d/${token}/p/1/download`, { Cookie: cookie })).status).toBe(302);
  });

  it("streams the ZIP itself instead of redirecting: counting its download needs the bytes", async () => {
    const id = await insertProjectRow(t.ctx, { name: "Zipped" });
    const upload = await request(t.app)
      .post(`/api/attachments/projects/${id}/upload`)
      .set(staff.auth)
      .attach("file", photo, "one.jpg");
    expect(upload.status).toBe(201);
    const events = recordPublishEvents(t.ctx, id);
    expect((await request(t.app).post(`/api/projects/${id}/publish`).set(staff.auth)).status).toBe(202);
    await events.next("publish_completed");
    events.stop();
    const zipName = (await projectRow(t.ctx, id)).published_zip_path.replace(/^published\//, "");

    const res = await get(`/d/${zipName.replace(/\.zip$/, "")}/all.zip`);

    expect(res.status).toBe(200);
    expect(res.headers.location).toBeUndefined();
    expect(res.headers["content-type"]).toBe("application/zip");
    expect(Number(res.headers["content-length"])).toBe((await storesOf(t.ctx.config).published.stat(zipName))?.size);
    expect((res.body as Buffer).subarray(0, 2).toString("latin1")).toBe("PK");
    await expect.poll(async () => (await projectRow(t.ctx, id)).delivery_downloads, { timeout: 10_000 }).toBe(1);
  });
});
