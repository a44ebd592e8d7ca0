import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeNoisyJpeg } from "../attachments/test-fixtures";
import { nowIso } from "../db/database";
import { createTestApp, createUser, type TestApp, type TestUser } from "../test/harness";
import { insertProjectRow } from "../test/rows";
import { uploadPath } from "../storage/paths";
import { until } from "../test/wait";
import { PHOTOS_PER_PART } from "./delivery-page";
import { cookiesOf } from "./test-fixtures";
import { getBinary } from "../test/binary-body";

/**
 * A delivery of 10,000 photos, made by SQL (one small JPEG hard-linked 10,000 times, one shared
 * thumbnail): the page's first answer stays small, and every photo is reachable part by part.
 */
const PHOTOS = 10_000;
let t: TestApp;
let staff: TestUser;
let token: string;
let projectId: number;
let photo: Buffer;

const nameOf = (n: number) => `DSC_${String(n).padStart(5, "0")}.jpg`;

beforeAll(async () => {
  t = await createTestApp();
  staff = await createUser(t.ctx);
  token = crypto.randomBytes(16).toString("base64url");
  projectId = await insertProjectRow(t.ctx, {
    name: "Marathon 2026",
    publishStatus: "published",
    publishedZipPath: `published/${token}.zip`,
  });
  fs.mkdirSync(t.ctx.config.publishedDir, { recursive: true });
  fs.writeFileSync(path.join(t.ctx.config.publishedDir, `${token}.zip`), "PK");
  photo = await makeNoisyJpeg(64, 48);
  const dir = path.dirname(uploadPath(t.ctx.config, `${projectId}/x`));
  fs.mkdirSync(dir, { recursive: true });
  const original = path.join(dir, "original.jpg");
  fs.writeFileSync(original, photo);
  fs.writeFileSync(path.join(dir, "thumb.webp"), photo);
  const now = nowIso();
  const rows = Array.from({ length: PHOTOS }, (_, i) => {
    fs.linkSync(original, path.join(dir, `${i + 1}.jpg`));
    return {
      project_id: projectId,
      original_name: nameOf(i + 1),
      storage_key: `${projectId}/${i + 1}.jpg`,
      thumbnail_key: `${projectId}/thumb.webp`,
      mime_type: "image/jpeg",
      size: photo.length,
      checksum: crypto.createHash("sha256").update(photo).digest("hex"),
      created_at: now,
      updated_at: now,
    };
  });
  await t.ctx.db.batchInsert("attachments", rows, 500);
}, 120_000);
afterAll(async () => {
  await t.close();
});

const page = (query = "") => request(t.app).get(`/d/${token}${query}`);
const part = (from: number | string, cookie?: string) => {
  const req = request(t.app).get(`/d/${token}/photos`).query({ from });
  return cookie ? req.set("Cookie", cookie) : req;
};

describe("the delivery page of 10,000 photos", () => {
  it("answers its first HTML under 100 kB: the first part of the grid and a link to the next", async () => {
    const res = await page();
    expect(res.status).toBe(200);
    expect(Buffer.byteLength(res.text)).toBeLessThan(100 * 1024);
    expect(res.text).toContain("10000 photos");
    expect(res.text.match(/<li>/g)).toHaveLength(PHOTOS_PER_PART);
    expect(res.text).toContain(`data-from="1" data-total="${PHOTOS}" data-part="${PHOTOS_PER_PART}"`);
    expect(res.text).toContain(`href="?from=${PHOTOS_PER_PART + 1}">More photos</a>`);
    expect(res.text).not.toContain("Previous photos");
    expect(res.text).toContain('href="all.zip"');
  });

  it("hands the script every photo part by part, the last one included", async () => {
    const names: string[] = [];
    for (let from = PHOTOS_PER_PART + 1; from <= PHOTOS; from += PHOTOS_PER_PART) {
      const res = await part(from);
      expect(res.status).toBe(200);
      expect(res.headers["cache-control"]).toBe("no-store");
      expect(res.body.from).toBe(from);
      expect(res.body.total).toBe(PHOTOS);
      names.push(...res.body.photos.map((p: { name: string }) => p.name));
    }
    expect(names).toHaveLength(PHOTOS - PHOTOS_PER_PART);
    expect(names.at(-1)).toBe(nameOf(PHOTOS));
    expect((await part(PHOTOS + 1)).body.photos).toEqual([]);
    const last = await getBinary(t.app, `/d/${token}/p/${PHOTOS}`);
    expect(last.status).toBe(200);
    expect((last.body as Buffer).equals(photo)).toBe(true);
    expect((await request(t.app).get(`/d/${token}/t/${PHOTOS}`)).status).toBe(200);
  });

  it("shows a later part as a page of its own without the script, not counted as a view", async () => {
    const views = async () =>
      (await t.ctx.db("projects").where({ id: projectId }).first("delivery_views")).delivery_views;
    const before = await views();
    const res = await page(`?from=${PHOTOS - PHOTOS_PER_PART + 1}`);
    expect(res.status).toBe(200);
    expect(res.text.match(/<li>/g)).toHaveLength(PHOTOS_PER_PART);
    expect(res.text).toContain(`<img src="t/${PHOTOS}" srcset="t/${PHOTOS} 400w, v/${PHOTOS} 2048w"`);
    expect(res.text).toContain(`alt="${nameOf(PHOTOS)}"`);
    expect(res.text).toContain(`href="?from=${PHOTOS - 2 * PHOTOS_PER_PART + 1}">Previous photos</a>`);
    expect(res.text).not.toContain("More photos");
    expect(await views()).toBe(before);
    expect((await page("?from=0")).text).toContain('data-from="1"');
  });

  it("asks for the parts with the photos' own checks: 400, 404, 401 without the passcode's cookie, 410", async () => {
    expect((await part("x")).status).toBe(400);
    expect((await part(0)).status).toBe(400);
    expect((await request(t.app).get(`/d/${"A".repeat(22)}/photos?from=1`)).body).toEqual({
      statusCode: 404,
      message: "Not found",
    });
    const settings = (body: object) =>
      request(t.app).put(`/api/projects/${projectId}/delivery`).set(staff.auth).send(body);
    expect((await settings({ passcode: "runners" })).status).toBe(200);
    try {
      expect((await part(201)).body).toEqual({ statusCode: 401, message: "Passcode required" });
      const cookie = cookiesOf(
        await request(t.app).post(`/d/${token}/unlock`).type("form").send({ passcode: "runners" }),
      );
      expect((await part(201, cookie)).status).toBe(200);
      // The API refuses a past expiry: one a moment away is set and then passes.
      const soon = new Date(Date.now() + 1000).toISOString();
      expect((await settings({ expiresAt: soon })).status).toBe(200);
      await until(
        () => Date.now(),
        (now) => now > Date.parse(soon),
        5_000,
      );
      expect((await part(201, cookie)).body).toEqual({ statusCode: 410, message: "This delivery has expired" });
    } finally {
      await settings({ passcode: null, expiresAt: null });
    }
  });

  it("stays under 100 kB with both ZIPs offered and when view-only", async () => {
    const settings = (body: object) =>
      request(t.app).put(`/api/projects/${projectId}/delivery`).set(staff.auth).send(body);
    fs.writeFileSync(path.join(t.ctx.config.publishedDir, `${token}-web.zip`), "PK");
    const sizes: Record<string, number> = { originals: Buffer.byteLength((await page()).text) };
    try {
      expect((await settings({ offerWebSize: true })).status).toBe(200);
      const both = (await page()).text;
      expect(both).toContain('href="web.zip"');
      sizes.webSize = Buffer.byteLength(both);
      expect((await settings({ allowDownloads: false })).status).toBe(200);
      const viewOnly = (await page()).text;
      expect(viewOnly).not.toContain("zip");
      expect(viewOnly.match(/<li>/g)).toHaveLength(PHOTOS_PER_PART);
      sizes.viewOnly = Buffer.byteLength(viewOnly);
    } finally {
      await settings({ allowDownloads: true, offerWebSize: false });
    }
    for (const size of Object.values(sizes)) expect(size).toBeLessThan(100 * 1024);
  });
});
