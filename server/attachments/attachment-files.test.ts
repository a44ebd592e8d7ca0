import crypto from "node:crypto";
import request from "supertest";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, createUser, type TestApp, type TestUser } from "../test/harness";
import { linkSigner } from "./signed-links";
import { makeNoisyJpeg, sentAs } from "./test-fixtures";
import { insertProjectRow } from "../test/rows";
import { isStored } from "../test/stored-files";
import { getBinary } from "../test/binary-body";

let t: TestApp;
let user: TestUser;
let photo: Buffer;
let attachment: {
  id: number;
  checksum: string;
  viewUrl: string;
  downloadUrl: string;
  thumbnailUrl: string;
  previewUrl: string;
  size: number;
};

beforeAll(async () => {
  t = await createTestApp();
  user = await createUser(t.ctx);
  photo = await makeNoisyJpeg(320, 240);
  const projectId = await insertProjectRow(t.ctx);
  const res = await request(t.app)
    .post(`/api/attachments/projects/${projectId}/upload`)
    .set(user.auth)
    .attach("file", photo, sentAs("Fête d’été 🎉.jpg"));
  expect(res.status).toBe(201);
  attachment = res.body;
});
afterAll(() => t.close());

describe("signed links", () => {
  it("serves the image inline with its type, without a bearer header", async () => {
    const res = await getBinary(t.app, attachment.viewUrl);
    expect(res.status).toBe(200);
    expect(res.headers["content-type"]).toBe("image/jpeg");
    expect(res.headers["x-content-type-options"]).toBe("nosniff");
    expect(res.headers["cache-control"]).toMatch(/^private, max-age=\d+$/);
    expect(res.headers["content-disposition"]).toMatch(/^inline; filename="/);
    expect((res.body as Buffer).equals(photo)).toBe(true);
  });

  it("serves a download named after the original name, with an ASCII fallback", async () => {
    const res = await getBinary(t.app, attachment.downloadUrl);
    expect(res.status).toBe(200);
    expect(res.headers["content-type"]).toBe("image/jpeg");
    expect(res.headers["content-disposition"]).toBe(
      `attachment; filename="F?te d??t? ??.jpg"; filename*=UTF-8''F%C3%AAte%20d%E2%80%99%C3%A9t%C3%A9%20%F0%9F%8E%89.jpg`,
    );
    expect((res.body as Buffer).equals(photo)).toBe(true);
  });

  it("serves a WebP thumbnail of at most 400 px", async () => {
    const res = await getBinary(t.app, attachment.thumbnailUrl);
    expect(res.status).toBe(200);
    expect(res.headers["content-type"]).toBe("image/webp");
    const meta = await sharp(res.body as Buffer).metadata();
    expect(meta.format).toBe("webp");
    expect(Math.max(meta.width, meta.height)).toBeLessThanOrEqual(400);
  });

  it("refuses a tampered signature, id or kind with 403", async () => {
    const tampered = attachment.viewUrl.replace(/sig=b(.)/, (_m, c: string) => `sig=b${c === "A" ? "B" : "A"}`);
    expect((await request(t.app).get(tampered)).status).toBe(403);
    expect((await request(t.app).get(attachment.viewUrl.replace("sig=b", "sig=c"))).status).toBe(403);
    expect(
      (await request(t.app).get(attachment.viewUrl.replace(`/${attachment.id}/`, `/0${attachment.id}/`))).status,
    ).toBe(403);
    expect((await request(t.app).get(`${attachment.viewUrl}x`)).status).toBe(403);
    const otherKind = attachment.viewUrl.replace("/view?", "/download?");
    expect((await request(t.app).get(otherKind)).status).toBe(403);
    const laterExpiry = attachment.viewUrl.replace(/exp=(\d+)/, (_m, e: string) => `exp=${Number(e) + 3600}`);
    const res = await request(t.app).get(laterExpiry);
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ statusCode: 403, message: "Invalid link signature" });
    const otherId = attachment.viewUrl.replace(`/${attachment.id}/`, `/${attachment.id + 1}/`);
    expect((await request(t.app).get(otherId)).status).toBe(403);
  });

  it("signs each link with AES-128 of one block (tag, kind, id, expiry), as the release before did, so links already given out keep working", async () => {
    const secret = await t.ctx.db("app_secrets").where({ name: "attachment_link_key" }).first("value");
    const key = crypto.hkdfSync(
      "sha256",
      Buffer.from(secret.value, "base64url"),
      Buffer.alloc(0),
      "photodrop attachment link blocks",
      16,
    );
    const signed = (id: number, kind: number, exp: number) => {
      const block = Buffer.alloc(16);
      block[0] = 0x4c;
      block[1] = kind;
      block.writeUInt32BE(Math.floor(id / 2 ** 32), 2);
      block.writeUInt32BE(id >>> 0, 6);
      block.writeUIntBE(exp, 10, 6);
      const cipher = crypto.createCipheriv("aes-128-ecb", Buffer.from(key), null).setAutoPadding(false);
      return `b${Buffer.concat([cipher.update(block), cipher.final()]).toString("base64url")}`;
    };
    const signer = await linkSigner(t.ctx.db);
    const ids = [1, 7, 123456, 2 ** 32 + 5, 2 ** 53 - 1];
    const now = Math.floor(Date.now() / 1000);
    const made = signer.urlsOf(ids, now);
    ids.forEach((id, i) => {
      ["view", "download", "thumbnail", "preview"].forEach((kind, k) => {
        const url = new URL(made[i][kind as "view"], "http://x");
        const exp = Number(url.searchParams.get("exp"));
        expect(url.pathname).toBe(`/api/attachments/${id}/${kind}`);
        expect(url.searchParams.get("sig")).toBe(signed(id, k, exp));
      });
    });
    const link = `/api/attachments/${attachment.id}/view?exp=${now + 1800}&sig=${signed(attachment.id, 0, now + 1800)}`;
    expect((await getBinary(t.app, link)).status).toBe(200);
  });

  it("accepts a link signed with one HMAC-SHA-512 per attachment (the format before), until it expires", async () => {
    const secret = await t.ctx.db("app_secrets").where({ name: "attachment_link_key" }).first("value");
    const key = Buffer.from(secret.value, "base64url");
    const signedBefore = (kind: string, exp: number) => {
      const mac = crypto.createHmac("sha512", key).update(`${attachment.id}\n${exp}`).digest();
      const segment = mac.subarray(16, 32).toString("base64url");
      return `/api/attachments/${attachment.id}/${kind}?exp=${exp}&sig=${segment}`;
    };
    const exp = Math.floor(Date.now() / 1000) + 1800;
    const download = await getBinary(t.app, signedBefore("download", exp));
    expect([download.status, (download.body as Buffer).equals(photo)]).toEqual([200, true]);
    expect((await request(t.app).get(signedBefore("download", exp).replace("/download?", "/view?"))).status).toBe(403);
    expect((await request(t.app).get(signedBefore("download", exp - 3600))).status).toBe(403);
  });

  it("accepts a link signed before links shared one signature per attachment, until it expires", async () => {
    const secret = await t.ctx.db("app_secrets").where({ name: "attachment_link_key" }).first("value");
    const key = Buffer.from(secret.value, "base64url");
    const signedBefore = (kind: string, exp: number) =>
      `/api/attachments/${attachment.id}/${kind}?exp=${exp}&sig=` +
      crypto.createHmac("sha256", key).update(`${attachment.id}\n${kind}\n${exp}`).digest("base64url");
    const exp = Math.floor(Date.now() / 1000) + 1800;
    expect((await getBinary(t.app, signedBefore("view", exp))).status).toBe(200);
    expect((await request(t.app).get(signedBefore("view", exp).replace("/view?", "/download?"))).status).toBe(403);
    expect((await request(t.app).get(signedBefore("view", exp - 3600))).status).toBe(403);
  });

  it("refuses an expired link with 403", async () => {
    const signer = await linkSigner(t.ctx.db);
    const twoHoursAgo = Math.floor(Date.now() / 1000) - 7200;
    const res = await request(t.app).get(signer.url(attachment.id, "view", twoHoursAgo));
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ statusCode: 403, message: "Link has expired" });
  });

  it("makes links that expire in about an hour", () => {
    const exp = Number(new URL(attachment.viewUrl, "http://x").searchParams.get("exp"));
    const inSeconds = exp - Date.now() / 1000;
    expect(inSeconds).toBeGreaterThan(3500);
    expect(inSeconds).toBeLessThanOrEqual(3600 + 600);
  });

  it("asks for credentials with 401 when there is neither a signature nor a token", async () => {
    const res = await request(t.app).get(`/api/attachments/${attachment.id}/view`);
    expect(res.status).toBe(401);
    expect(res.body.statusCode).toBe(401);
  });

  it("answers 404 for a signed link to an attachment that is gone", async () => {
    const signer = await linkSigner(t.ctx.db);
    const res = await request(t.app).get(signer.url(987654, "view"));
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ statusCode: 404, message: "Attachment not found" });
  });
});

describe("bearer access to files", () => {
  it("serves view and download to an approved user's token", async () => {
    for (const kind of ["view", "download"]) {
      const res = await getBinary(t.app, `/api/attachments/${attachment.id}/${kind}`, user.auth);
      expect(res.status).toBe(200);
      expect((res.body as Buffer).equals(photo)).toBe(true);
      expect(res.headers["cache-control"]).toBe("private, no-cache");
    }
  });

  it("refuses an unapproved user with 403 and a bad token with 401", async () => {
    const pending = await createUser(t.ctx, { hasAccess: false });
    expect((await request(t.app).get(`/api/attachments/${attachment.id}/view`).set(pending.auth)).status).toBe(403);
    expect(
      (await request(t.app).get(`/api/attachments/${attachment.id}/view`).set("Authorization", "Bearer nope")).status,
    ).toBe(401);
  });
});

describe("access to previews", () => {
  it("serves the preview to its own signed link or a token, and to nothing else", async () => {
    const signed = await getBinary(t.app, attachment.previewUrl);
    expect([signed.status, signed.headers["content-type"]]).toEqual([200, "image/jpeg"]);
    expect(signed.headers["cache-control"]).toMatch(/^private, max-age=\d+$/);
    const byToken = await getBinary(t.app, `/api/attachments/${attachment.id}/preview`, user.auth);
    expect(byToken.status).toBe(200);
    expect((byToken.body as Buffer).equals(signed.body as Buffer)).toBe(true);
    expect((await request(t.app).get(attachment.thumbnailUrl.replace("/thumbnail?", "/preview?"))).status).toBe(403);
    expect((await request(t.app).get(attachment.previewUrl.replace("/preview?", "/download?"))).status).toBe(403);
    expect((await request(t.app).get(`/api/attachments/${attachment.id}/preview`)).status).toBe(401);
    const pending = await createUser(t.ctx, { hasAccess: false });
    expect((await request(t.app).get(`/api/attachments/${attachment.id}/preview`).set(pending.auth)).status).toBe(403);
    const signer = await linkSigner(t.ctx.db);
    const expired = await request(t.app).get(
      signer.url(attachment.id, "preview", Math.floor(Date.now() / 1000) - 7200),
    );
    expect(expired.status).toBe(403);
    expect(expired.body).toEqual({ statusCode: 403, message: "Link has expired" });
    const gone = await request(t.app).get(signer.url(987654, "preview"));
    expect([gone.status, gone.body.message]).toEqual([404, "Attachment not found"]);
  });
});

describe("caching and ranges", () => {
  it("tags the file with its checksum and answers 304 to a matching If-None-Match", async () => {
    const first = await request(t.app).get(attachment.viewUrl);
    expect(first.headers.etag).toBe(`"${attachment.checksum}"`);
    const again = await request(t.app).get(attachment.viewUrl).set("If-None-Match", first.headers.etag);
    expect(again.status).toBe(304);
    const changed = await request(t.app).get(attachment.viewUrl).set("If-None-Match", '"something-else"');
    expect(changed.status).toBe(200);
  });

  it("answers a byte range with 206", async () => {
    const res = await getBinary(t.app, attachment.downloadUrl, { Range: "bytes=10-19" });
    expect(res.status).toBe(206);
    expect(res.headers["content-range"]).toBe(`bytes 10-19/${photo.length}`);
    expect((res.body as Buffer).equals(photo.subarray(10, 20))).toBe(true);
  });

  it("answers the whole file when If-Range names another version", async () => {
    const res = await getBinary(t.app, attachment.viewUrl, { Range: "bytes=0-9", "If-Range": '"old"' });
    expect(res.status).toBe(200);
    expect((res.body as Buffer).length).toBe(photo.length);
  });

  it("answers an unsatisfiable range with 416 JSON", async () => {
    const res = await request(t.app)
      .get(attachment.viewUrl)
      .set("Range", `bytes=${photo.length + 10}-`);
    expect(res.status).toBe(416);
    expect(res.headers["content-range"]).toBe(`bytes */${photo.length}`);
    expect(res.headers["content-type"]).toMatch(/^application\/json/);
    expect(res.body).toEqual({ statusCode: 416, message: "Range not satisfiable" });
  });
});

describe("no other way to the files", () => {
  it("does not serve UPLOADS_DIR by path", async () => {
    const [row] = await t.ctx.db("attachments").where({ id: attachment.id });
    expect(await isStored(t.ctx, row.storage_key)).toBe(true);
    for (const url of [
      `/uploads/${row.storage_key}`,
      `/${row.storage_key}`,
      `/api/uploads/${row.storage_key}`,
      `/api/attachments/${row.storage_key}`,
    ]) {
      const res = await getBinary(t.app, url);
      expect((res.body as Buffer).equals(photo)).toBe(false);
    }
  });
});
