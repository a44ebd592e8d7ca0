import fs from "node:fs";
import path from "node:path";
import request from "supertest";
import sharp from "sharp";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createTestApp, createUser, type TestApp, type TestUser } from "../test/harness";
import { makeHugeBlankPng, makeImage, makeNoisyJpeg, sentAs, sha256, storedThumbnail } from "./test-fixtures";
import { readStored, storedUploads } from "../test/stored-files";
import { insertProjectRow } from "../test/rows";

const LIMIT = 200_000;
let t: TestApp;
let user: TestUser;
let projectId: number;

beforeAll(async () => {
  t = await createTestApp({ MAX_UPLOAD_BYTES: String(LIMIT) });
  user = await createUser(t.ctx);
});
afterAll(() => t.close());
beforeEach(async () => {
  projectId = await insertProjectRow(t.ctx);
});

const upload = (id = projectId) => request(t.app).post(`/api/attachments/projects/${id}/upload`).set(user.auth);
const uploadMany = (id = projectId) =>
  request(t.app).post(`/api/attachments/projects/${id}/upload-multiple`).set(user.auth);
const rowsOf = (id: number) => t.ctx.db("attachments").where({ project_id: id });
const uploads = () => storedUploads(t.ctx);

/** A refused upload leaves no row and no file anywhere under UPLOADS_DIR, temp folder included. */
async function expectNothingKept(before: string[], id = projectId) {
  expect(await rowsOf(id)).toEqual([]);
  expect(await uploads()).toEqual(before);
}

describe("uploading one image", () => {
  it.each([
    ["jpeg", "image/jpeg", "jpg"],
    ["png", "image/png", "png"],
    ["gif", "image/gif", "gif"],
    ["webp", "image/webp", "webp"],
  ] as const)(
    "accepts a %s and stores it under a generated name with a WebP thumbnail",
    async (format, mimeType, ext) => {
      const bytes = await makeImage(format, 64, 48);
      const res = await upload().attach("file", bytes, `photo.${ext}`);

      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({
        projectId,
        originalName: `photo.${ext}`,
        mimeType,
        size: bytes.length,
        width: 64,
        height: 48,
        checksum: sha256(bytes),
      });
      expect(res.body.viewUrl).toMatch(new RegExp(`^/api/attachments/${res.body.id}/view\\?exp=\\d+&sig=[\\w-]+$`));
      const [row] = await rowsOf(projectId);
      expect(row.storage_key).toMatch(new RegExp(`^${projectId}/[0-9a-f]{32}\\.${ext}$`));
      expect((await readStored(t.ctx, row.storage_key)).equals(bytes)).toBe(true);
      const thumb = await sharp(await storedThumbnail(t.ctx, row.id)).metadata();
      expect(thumb.format).toBe("webp");
      expect((await uploads()).filter((f) => f.startsWith(".tmp"))).toEqual([]);
    },
  );

  it("renders a thumbnail at most 400 px on its long side", async () => {
    const res = await upload().attach("file", await makeImage("jpeg", 1200, 900), "wide.jpg");
    expect(res.status).toBe(201);
    const [row] = await rowsOf(projectId);
    const thumb = await sharp(await storedThumbnail(t.ctx, row.id)).metadata();
    expect([thumb.format, thumb.width, thumb.height]).toEqual(["webp", 400, 300]);
  });

  it("turns a photo by its EXIF orientation for the thumbnail and the stated size", async () => {
    const sideways = await sharp({ create: { width: 120, height: 60, channels: 3, background: "#3366cc" } })
      .jpeg()
      .withMetadata({ orientation: 6 })
      .toBuffer();
    const res = await upload().attach("file", sideways, "portrait.jpg");
    expect(res.status).toBe(201);
    expect([res.body.width, res.body.height]).toEqual([60, 120]);
    const [row] = await rowsOf(projectId);
    const thumb = await sharp(await storedThumbnail(t.ctx, row.id)).metadata();
    expect([thumb.width, thumb.height]).toEqual([60, 120]);
  });

  it("keeps hostile, unicode and spaced names only in the database", async () => {
    for (const name of ["../../etc/passwd.jpg", "Fête d’été 🎉 final.jpg", "  two  spaces .jpg"]) {
      const res = await upload().attach("file", await makeImage("jpeg"), sentAs(name));
      expect(res.status).toBe(201);
      // Names are trimmed at upload (issue 14, item 4); the rest is kept as sent.
      expect(res.body.originalName).toBe(name.trim());
    }
    const keys = (await rowsOf(projectId)).map((r) => r.storage_key as string);
    for (const key of keys) expect(key).toMatch(/^\d+\/[0-9a-f]{32}\.jpg$/);
    expect((await uploads()).some((f) => /passwd|Fête|spaces/.test(f))).toBe(false);
    expect(fs.existsSync(path.join(t.dir, "etc"))).toBe(false);
  });

  it("accepts a file of exactly MAX_UPLOAD_BYTES", async () => {
    const jpeg = await makeImage("jpeg");
    const exact = Buffer.concat([jpeg, Buffer.alloc(LIMIT - jpeg.length)]);
    const res = await upload().attach("file", exact, "exact.jpg");
    expect(res.status).toBe(201);
    expect(res.body.size).toBe(LIMIT);
  });
});

describe("refusing an upload", () => {
  it.each([
    ["text named .jpg", () => Buffer.from("just some text, not a photo"), "notes.jpg"],
    [
      "an SVG",
      () =>
        Buffer.from(
          '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10"/></svg>',
        ),
      "logo.svg",
    ],
    [
      "an SVG named .png",
      () => Buffer.from('<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg"/>'),
      "logo.png",
    ],
    ["a PDF", () => Buffer.from("%PDF-1.4\n1 0 obj\n<<>>\nendobj\n"), "doc.jpg"],
  ])("refuses %s with 415 and keeps nothing", async (_label, content, name) => {
    const before = await uploads();
    const res = await upload().attach("file", content(), name);
    expect(res.status).toBe(415);
    expect(res.body).toEqual({ statusCode: 415, message: "Unsupported file type" });
    await expectNothingKept(before);
  });

  it.each([
    ["a small JPEG", () => makeNoisyJpeg(300, 200)],
    // Large enough that the thumbnail is decoded at reduced scale: truncation must still be seen.
    ["a large JPEG", () => makeImage("jpeg", 2400, 1800)],
    [
      "a PNG",
      () =>
        sharp({
          create: {
            width: 300,
            height: 300,
            channels: 3,
            background: "#000",
            noise: { type: "gaussian", mean: 128, sigma: 40 },
          },
        })
          .png()
          .toBuffer(),
    ],
  ])(
    "refuses %s cut short (truncated) with 415 'Image is damaged or incomplete' and keeps nothing",
    async (_kind, make) => {
      const whole = await make();
      const before = await uploads();
      const res = await upload().attach("file", whole.subarray(0, Math.floor(whole.length * 0.6)), "cut.jpg");
      expect(res.status).toBe(415);
      expect(res.body.message).toBe("Image is damaged or incomplete");
      await expectNothingKept(before);
    },
  );

  it.each([
    ["a small JPEG", () => makeNoisyJpeg(300, 200)],
    ["a large JPEG", () => makeImage("jpeg", 2400, 1800)],
  ])(
    "accepts %s whose data is whole but lacks its final end marker, keeping its bytes as sent",
    async (_kind, make) => {
      const whole = await make();
      expect(whole.subarray(-2)).toEqual(Buffer.from([0xff, 0xd9]));
      const endless = whole.subarray(0, whole.length - 2);
      const res = await upload().attach("file", endless, "no-end.jpg");
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      expect(res.body.checksum).toBe(sha256(endless));
      expect(res.body.size).toBe(endless.length);
    },
  );

  it("refuses a JPEG without its end marker whose data is also cut short", async () => {
    const whole = await makeNoisyJpeg(300, 200);
    const res = await upload().attach("file", whole.subarray(0, Math.floor(whole.length * 0.8)), "cut.jpg");
    expect(res.status).toBe(415);
    expect(res.body.message).toBe("Image is damaged or incomplete");
  });

  it("refuses an image of more than 160 megapixels with 415 before decoding it, and keeps nothing", async () => {
    const huge = makeHugeBlankPng(16000, 16000);
    expect(huge.length).toBeLessThan(LIMIT);
    const before = await uploads();
    const res = await upload().attach("file", huge, "huge.png");
    expect(res.status).toBe(415);
    expect(res.body).toEqual({ statusCode: 415, message: "Image has more than 160 megapixels" });
    await expectNothingKept(before);
  });

  it("refuses a file one byte over MAX_UPLOAD_BYTES with 413 and keeps nothing", async () => {
    const jpeg = await makeImage("jpeg");
    const before = await uploads();
    const res = await upload().attach("file", Buffer.concat([jpeg, Buffer.alloc(LIMIT + 1 - jpeg.length)]), "big.jpg");
    expect(res.status).toBe(413);
    expect(res.body).toEqual({ statusCode: 413, message: "File too large" });
    await expectNothingKept(before);
  });

  it("refuses an empty file with 415 and keeps nothing", async () => {
    const before = await uploads();
    const res = await upload().attach("file", Buffer.alloc(0), "empty.jpg");
    expect(res.status).toBe(415);
    expect(res.body).toEqual({ statusCode: 415, message: "Unsupported file type" });
    await expectNothingKept(before);
  });

  it("answers 400 'No file uploaded' without the file field, and removes what came in another field", async () => {
    const before = await uploads();
    const res = await upload().attach("photo", await makeImage("jpeg"), "a.jpg");
    expect(res.status).toBe(400);
    expect(res.body.message).toBe("No file uploaded");
    const bare = await upload().send({ file: "a.jpg" });
    expect(bare.status).toBe(400);
    expect(bare.body.message).toBe("No file uploaded");
    await expectNothingKept(before);
  });

  it("answers 400 for a malformed multipart body", async () => {
    const before = await uploads();
    const res = await upload()
      .set("Content-Type", "multipart/form-data; boundary=xyz")
      .send("--xyz\r\nContent-Disposition: form-da");
    expect(res.status).toBe(400);
    await expectNothingKept(before);
  });

  it("answers 404 for an unknown project and 400 for an id that is not a number", async () => {
    const before = await uploads();
    const res = await upload(999_999).attach("file", await makeImage("jpeg"), "a.jpg");
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ statusCode: 404, message: "Project not found" });
    expect((await upload("abc" as unknown as number).attach("file", await makeImage("jpeg"), "a.jpg")).status).toBe(
      400,
    );
    expect(await uploads()).toEqual(before);
  });

  it.each(["published", "publishing"])("answers 409 for a %s project", async (status) => {
    const locked = await insertProjectRow(t.ctx, { publishStatus: status });
    const before = await uploads();
    const res = await upload(locked).attach("file", await makeImage("jpeg"), "a.jpg");
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ statusCode: 409, message: "Project is published" });
    const many = await uploadMany(locked).attach("files", await makeImage("jpeg"), "a.jpg");
    expect(many.status).toBe(409);
    await expectNothingKept(before, locked);
  });

  it("needs an approved user", async () => {
    const pending = await createUser(t.ctx, { hasAccess: false });
    const res = await request(t.app)
      .post(`/api/attachments/projects/${projectId}/upload`)
      .set(pending.auth)
      .attach("file", await makeImage("jpeg"), "a.jpg");
    expect(res.status).toBe(403);
    const anonymous = await request(t.app)
      .post(`/api/attachments/projects/${projectId}/upload`)
      .attach("file", await makeImage("jpeg"), "a.jpg");
    expect(anonymous.status).toBe(401);
    expect(await rowsOf(projectId)).toEqual([]);
  });
});

describe("uploading several images", () => {
  it("stores every file of the repeated field and answers them in order", async () => {
    const res = await uploadMany()
      .attach("files", await makeImage("jpeg"), "one.jpg")
      .attach("files", await makeImage("png"), "two.png")
      .attach("files", await makeImage("webp"), "three.webp");
    expect(res.status).toBe(201);
    expect(res.body.map((a: { originalName: string }) => a.originalName)).toEqual(["one.jpg", "two.png", "three.webp"]);
    const rows = await rowsOf(projectId).orderBy("id");
    expect(rows).toHaveLength(3);
    // The JPEG, proven whole without a decode, gets its thumbnail after the answer.
    expect(rows.map((r) => [r.original_name, r.thumbnail_key === null])).toEqual([
      ["one.jpg", true],
      ["two.png", false],
      ["three.webp", false],
    ]);
    expect((await uploads()).filter((f) => f.startsWith(`${projectId}/`))).toHaveLength(5);
    await storedThumbnail(t.ctx, rows[0].id);
    expect((await uploads()).filter((f) => f.startsWith(`${projectId}/`))).toHaveLength(6);
  });

  it("stores none when one file is not an image, and names the bad one", async () => {
    const before = await uploads();
    const res = await uploadMany()
      .attach("files", await makeImage("jpeg"), "good.jpg")
      .attach("files", Buffer.from("hello"), "bad.jpg")
      .attach("files", await makeImage("gif"), "also-good.gif");
    expect(res.status).toBe(415);
    expect(res.body).toEqual({
      statusCode: 415,
      message: "Unsupported file type",
      errors: { "files[1]": "bad.jpg: Unsupported file type" },
    });
    await expectNothingKept(before);
  });

  it("stores none when a later file is over the limit", async () => {
    const jpeg = await makeImage("jpeg");
    const before = await uploads();
    const res = await uploadMany()
      .attach("files", jpeg, "good.jpg")
      .attach("files", Buffer.concat([jpeg, Buffer.alloc(LIMIT)]), "huge.jpg");
    expect(res.status).toBe(413);
    expect(res.body.message).toBe("File too large");
    await expectNothingKept(before);
  });

  it("refuses more than 200 files in one request and stores none", async () => {
    const jpeg = await makeImage("jpeg", 8, 8);
    const before = await uploads();
    const req = uploadMany();
    for (let i = 0; i < 201; i++) req.attach("files", jpeg, `p${i}.jpg`);
    const res = await req;
    expect(res.status).toBe(400);
    expect(res.body.message).toBe("At most 200 files per upload");
    await expectNothingKept(before);
  });

  it("answers 400 without any file", async () => {
    const res = await uploadMany().field("note", "nothing here");
    expect(res.status).toBe(400);
    expect(res.body.message).toBe("No file uploaded");
  });
});

describe("the default 10 MiB limit", () => {
  let big: TestApp;
  let bigUser: TestUser;
  beforeAll(async () => {
    big = await createTestApp();
    bigUser = await createUser(big.ctx);
  });
  afterAll(() => big.close());

  it("refuses 10 MiB + 1 byte with 413 and keeps nothing", async () => {
    const id = await insertProjectRow(big.ctx);
    const jpeg = await makeImage("jpeg");
    const res = await request(big.app)
      .post(`/api/attachments/projects/${id}/upload`)
      .set(bigUser.auth)
      .attach("file", Buffer.concat([jpeg, Buffer.alloc(10 * 1024 * 1024 + 1 - jpeg.length)]), "big.jpg");
    expect(res.status).toBe(413);
    expect(res.body).toEqual({ statusCode: 413, message: "File too large" });
    expect(await big.ctx.db("attachments")).toEqual([]);
    expect(await storedUploads(big.ctx)).toEqual([]);
  });
});
