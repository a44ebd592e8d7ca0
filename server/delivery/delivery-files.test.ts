import fs from "node:fs";
import path from "node:path";
import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, createUser, type TestApp, type TestUser } from "../test/harness";
import { appWithUser } from "../test/app-with-user";
import { cancelAllPublishes } from "../publish/publish.service";
import { uploadPath } from "../storage/paths";
import { until } from "../test/wait";
import { ACCEL_LOCATION, ACCEL_PUBLISHED_LOCATION } from "../http/sendfile-header";
import { cookiesOf, publishDelivery, type PublishedDelivery } from "./test-fixtures";
import { getBinary } from "../test/binary-body";

const made = appWithUser();

/** The files of a delivery's photos and thumbnails on disk, in the page's order. */
async function storedFiles(app: TestApp, d: PublishedDelivery) {
  const rows = await app.ctx
    .db("attachments")
    .where({ project_id: d.id })
    .orderBy([{ column: "created_at" }, { column: "id" }])
    .select("storage_key", "thumbnail_key");
  return rows.map((r: { storage_key: string; thumbnail_key: string | null }) => ({
    photo: uploadPath(app.ctx.config, r.storage_key),
    thumbnail: r.thumbnail_key && uploadPath(app.ctx.config, r.thumbnail_key),
  }));
}

/** Counts the queries both pools run while `work` runs. */
async function queriesDuring(app: TestApp, work: () => Promise<void>): Promise<string[]> {
  const seen: string[] = [];
  const listen = (q: { sql: string }) => seen.push(q.sql);
  app.ctx.db.on("query", listen);
  if (app.ctx.reads !== app.ctx.db) app.ctx.reads.on("query", listen);
  try {
    await work();
  } finally {
    app.ctx.db.off("query", listen);
    if (app.ctx.reads !== app.ctx.db) app.ctx.reads.off("query", listen);
  }
  return seen;
}

describe("delivery files from memory", () => {
  let t: TestApp;
  let staff: TestUser;
  let d: PublishedDelivery;
  beforeAll(async () => {
    ({ t, user: staff } = made);
    d = await publishDelivery(t, staff, { photoNames: ["a.jpg", "b.jpg", "c.jpg"], side: 320 });
  });
  afterAll(() => cancelAllPublishes(t.ctx));

  it("answers photos, thumbnails, previews and the ZIP again without a database query", async () => {
    // A photo's own download (p/<n>/download) is a row of 'Delivery activity', a write, so not here.
    const urls = [`${d.page}/p/1`, `${d.page}/t/3`, `${d.page}/v/2`, `${d.page}/all.zip`, d.zipUrl];
    // Parts of the ZIP: a complete download is counted, which is a write.
    const part = { Range: "bytes=0-99" };
    for (const url of urls) expect((await getBinary(t.app, url, part)).status, url).toBe(206);
    const queries = await queriesDuring(t, async () => {
      for (let round = 0; round < 5; round++)
        for (const url of urls) expect((await getBinary(t.app, url, part)).status, url).toBe(206);
    });
    expect(queries).toEqual([]);
  });

  it("answers a revalidation with 304 from the ETag alone, without reading the file", async () => {
    const first = await getBinary(t.app, `${d.page}/p/1`);
    const etag = first.headers.etag;
    expect(etag).toMatch(/^"[0-9a-f]{64}"$/);
    const { photo } = (await storedFiles(t, d))[0];
    const kept = fs.readFileSync(photo);
    fs.rmSync(photo);
    try {
      const again = await getBinary(t.app, `${d.page}/p/1`, { "If-None-Match": etag });
      expect(again.status).toBe(304);
      expect((again.body as Buffer).length).toBe(0);
      expect(again.headers.etag).toBe(etag);
      expect((await getBinary(t.app, `${d.page}/p/1`)).status).toBe(404);
    } finally {
      fs.writeFileSync(photo, kept);
    }
    const thumb = await getBinary(t.app, `${d.page}/t/1`);
    expect((await getBinary(t.app, `${d.page}/t/1`, { "If-None-Match": thumb.headers.etag })).status).toBe(304);
    const zip = await getBinary(t.app, `${d.page}/all.zip`);
    expect(zip.headers.etag).toMatch(/^W\/"/);
    expect((await getBinary(t.app, d.zipUrl, { "If-None-Match": zip.headers.etag })).status).toBe(304);
  });

  it("keeps a thumbnail in memory once read", async () => {
    const first = await getBinary(t.app, `${d.page}/t/2`);
    expect(first.status).toBe(200);
    expect(first.headers["content-type"]).toBe("image/webp");
    const { thumbnail } = (await storedFiles(t, d))[1];
    const kept = fs.readFileSync(thumbnail!);
    fs.rmSync(thumbnail!);
    try {
      const again = await getBinary(t.app, `${d.page}/t/2`);
      expect(again.status).toBe(200);
      expect((again.body as Buffer).equals(first.body as Buffer)).toBe(true);
    } finally {
      fs.writeFileSync(thumbnail!, kept);
    }
  });

  it("answers one range of a photo with 206, a stale If-Range with the whole photo, a range past the end with 416, HEAD with headers only", async () => {
    const whole = (await getBinary(t.app, `${d.page}/p/2`)).body as Buffer;
    const part = await getBinary(t.app, `${d.page}/p/2`, { Range: "bytes=10-109" });
    expect(part.status).toBe(206);
    expect(part.headers["content-range"]).toBe(`bytes 10-109/${whole.length}`);
    expect((part.body as Buffer).equals(whole.subarray(10, 110))).toBe(true);
    const stale = await getBinary(t.app, `${d.page}/p/2`, { Range: "bytes=10-109", "If-Range": '"another"' });
    expect(stale.status).toBe(200);
    expect((stale.body as Buffer).length).toBe(whole.length);
    const past = await getBinary(t.app, `${d.page}/p/2`, { Range: `bytes=${whole.length + 5}-` });
    expect(past.status).toBe(416);
    expect(past.headers["content-range"]).toBe(`bytes */${whole.length}`);
    expect(JSON.parse((past.body as Buffer).toString())).toEqual({ statusCode: 416, message: "Range not satisfiable" });
    const head = await request(t.app).head(`${d.page}/p/2`);
    expect(head.status).toBe(200);
    expect(head.headers["content-length"]).toBe(String(whole.length));
    expect((await getBinary(t.app, `${d.page}/p/2`, { "If-Match": '"another"' })).status).toBe(412);
  });

  it("sends a photo several of its 512 KiB reads long whole, and ranges that cross them exactly", async () => {
    const big = await publishDelivery(t, staff, { photoNames: ["big.jpg"], side: 2200 });
    const { photo } = (await storedFiles(t, big))[0];
    const bytes = fs.readFileSync(photo);
    expect(bytes.length).toBeGreaterThan(2 * 1024 * 1024);
    expect(((await getBinary(t.app, `${big.page}/p/1`)).body as Buffer).equals(bytes)).toBe(true);
    const from = 1024 * 1024 - 7;
    const to = 2 * 1024 * 1024 + 11;
    const part = await getBinary(t.app, `${big.page}/p/1`, { Range: `bytes=${from}-${to}` });
    expect((part.body as Buffer).equals(bytes.subarray(from, to + 1))).toBe(true);
  });

  it("answers an expiry that passes while the link is in memory with 410 on the next request", async () => {
    const soon = await publishDelivery(t, staff);
    const expiresAt = new Date(Date.now() + 1500).toISOString();
    const set = await request(t.app).put(`/api/projects/${soon.id}/delivery`).set(staff.auth).send({ expiresAt });
    expect(set.status).toBe(200);
    expect((await getBinary(t.app, `${soon.page}/t/1`)).status).toBe(200);
    await until(
      () => Date.now(),
      (now) => now > Date.parse(expiresAt),
      5_000,
    );
    for (const url of [soon.page, `${soon.page}/t/1`, `${soon.page}/p/1`, `${soon.page}/all.zip`, soon.zipUrl])
      expect((await request(t.app).get(url)).status, url).toBe(410);
  });
});

describe("ThumbnailCache bound", () => {
  it("reads every time with DELIVERY_THUMBNAIL_CACHE_MB=0", async () => {
    const none = await createTestApp({ DELIVERY_THUMBNAIL_CACHE_MB: "0" });
    try {
      const user = await createUser(none.ctx);
      const d = await publishDelivery(none, user);
      expect((await getBinary(none.app, `${d.page}/t/1`)).status).toBe(200);
      fs.rmSync((await storedFiles(none, d))[0].thumbnail!);
      expect((await getBinary(none.app, `${d.page}/t/1`)).status).toBe(404);
    } finally {
      await none.close();
    }
  });
});

describe("with SENDFILE_HEADER", () => {
  for (const header of ["X-Accel-Redirect", "X-Sendfile"] as const) {
    it(`hands photos, thumbnails and the ZIP to the proxy with ${header} and refuses what it refused`, async () => {
      const proxied = await createTestApp({ SENDFILE_HEADER: header });
      try {
        const user = await createUser(proxied.ctx);
        const d = await publishDelivery(proxied, user);
        const photo = await getBinary(proxied.app, `${d.page}/p/1`);
        expect(photo.status).toBe(200);
        expect((photo.body as Buffer).length).toBe(0);
        expect(photo.headers["content-type"]).toBe("image/jpeg");
        expect(photo.headers["cache-control"]).toBe("private, no-cache");
        const thumb = await getBinary(proxied.app, `${d.page}/t/1`);
        const files = await storedFiles(proxied, d);
        const named = (file: string) =>
          header === "X-Sendfile" ? file : `${ACCEL_LOCATION}/${file.slice(proxied.ctx.config.uploadsDir.length + 1)}`;
        expect(photo.headers[header.toLowerCase()]).toBe(named(files[0].photo));
        expect(thumb.headers[header.toLowerCase()]).toBe(named(files[0].thumbnail!));
        const zip = await getBinary(proxied.app, d.zipUrl);
        expect(zip.status).toBe(200);
        expect((zip.body as Buffer).length).toBe(0);
        expect(zip.headers["content-type"]).toBe("application/zip");
        expect(zip.headers[header.toLowerCase()]).toBe(
          header === "X-Sendfile" ? d.zipFile : `${ACCEL_PUBLISHED_LOCATION}/${path.basename(d.zipFile)}`,
        );

        await request(proxied.app).put(`/api/projects/${d.id}/delivery`).set(user.auth).send({ passcode: "1234" });
        const refused = await getBinary(proxied.app, `${d.page}/p/1`);
        expect(refused.status).toBe(401);
        expect(refused.headers[header.toLowerCase()]).toBeUndefined();
        const cookie = cookiesOf(
          await request(proxied.app).post(`/d/${d.token}/unlock`).type("form").send({ passcode: "1234" }),
        );
        expect((await getBinary(proxied.app, `${d.page}/p/1`, { Cookie: cookie })).headers[header.toLowerCase()]).toBe(
          named(files[0].photo),
        );
      } finally {
        await proxied.close();
      }
    });
  }
});
