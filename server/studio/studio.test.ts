import fs from "node:fs";
import path from "node:path";
import request from "supertest";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, createUser, type TestApp, type TestUser } from "../test/harness";
import type { ResourceChange } from "../events/bus";
import { makeImage } from "../attachments/test-fixtures";
import { getBinary } from "../test/binary-body";
import { insertProjectRow } from "../test/rows";

let t: TestApp;
let admin: TestUser;
let staff: TestUser;
beforeAll(async () => {
  t = await createTestApp({ STUDIO_NAME: "Lumen Studio" });
  admin = await createUser(t.ctx, { role: "admin" });
  staff = await createUser(t.ctx);
});
afterAll(() => t.close());

const api = () => request(t.app);
const read = (user: TestUser) => api().get("/api/studio/settings").set(user.auth);
const put = (user: TestUser, body: unknown) =>
  api()
    .put("/api/studio/settings")
    .set(user.auth)
    .send(body as object);
const putLogo = (user: TestUser, bytes: Buffer, type = "image/png") =>
  api().put("/api/studio/logo").set(user.auth).set("Content-Type", type).send(bytes);
const storedRow = () => t.ctx.db("studio_settings").first();
const logoFiles = () => {
  const dir = path.join(t.ctx.config.uploadsDir, "studio");
  return fs.existsSync(dir) ? fs.readdirSync(dir) : [];
};

const DEFAULTS = {
  name: "Lumen Studio",
  logoUrl: null,
  accentColor: "#1971c2",
  contactEmail: null,
  contactPhone: null,
  contactWebsite: null,
  timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
  language: "en",
  followBrowserLanguage: false,
  requireTwoFactor: false,
  updatedAt: null,
  version: 1,
  updatedBy: null,
};

describe("the studio's settings", () => {
  it("start from STUDIO_NAME and the default accent, readable by any approved staff member", async () => {
    for (const user of [staff, admin]) {
      const res = await read(user);
      expect(res.status).toBe(200);
      expect(res.body).toEqual(DEFAULTS);
    }
    expect((await api().get("/api/studio/settings")).status).toBe(401);
    const pending = await createUser(t.ctx, { hasAccess: false });
    expect((await read(pending)).status).toBe(403);
  });

  it("refuse a staff member who is not an admin: 403 and nothing changes", async () => {
    const res = await put(staff, { name: "Not mine" });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ statusCode: 403, message: "Admin access required" });
    expect((await putLogo(staff, await makeImage("png"))).status).toBe(403);
    expect((await api().delete("/api/studio/logo").set(staff.auth)).status).toBe(403);
    expect((await api().patch("/api/studio/settings").set(staff.auth).send({ accentColor: "#000000" })).status).toBe(
      403,
    );
    expect(await storedRow()).toBeUndefined();
    expect(logoFiles()).toEqual([]);
    expect((await read(staff)).body).toEqual(DEFAULTS);
  });

  it("are saved by an admin, announced live, and read back by staff", async () => {
    const seen: ResourceChange[] = [];
    const stop = t.ctx.events.onResourceChanged((c) => seen.push(c));
    const res = await put(admin, {
      name: "  Lumen & Co  ",
      accentColor: "#FFD43B",
      contactEmail: "hello@lumen.test",
      contactPhone: "+44 20 7946 0000",
      contactWebsite: "https://lumen.test/",
    });
    stop();
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      ...DEFAULTS,
      name: "Lumen & Co",
      accentColor: "#ffd43b",
      contactEmail: "hello@lumen.test",
      contactPhone: "+44 20 7946 0000",
      contactWebsite: "https://lumen.test/",
      updatedAt: expect.any(String),
      version: 2,
      updatedBy: { uid: admin.uid, name: admin.email },
    });
    expect(seen).toContainEqual({ resource: "studio", type: "updated", ids: ["settings"] });
    expect((await read(staff)).body).toEqual(res.body);
    // A partial change keeps the rest; a blank contact field clears it.
    const partial = await api().patch("/api/studio/settings").set(admin.auth).send({ contactPhone: "" });
    expect(partial.body).toMatchObject({ name: "Lumen & Co", contactPhone: null, contactEmail: "hello@lumen.test" });
  });

  it("complete a bare host such as nordlicht.example as https://", async () => {
    const res = await api().patch("/api/studio/settings").set(admin.auth).send({ contactWebsite: "nordlicht.example" });
    expect(res.status).toBe(200);
    expect(res.body.contactWebsite).toBe("https://nordlicht.example");
  });

  it("keep the studio's time zone, an IANA name", async () => {
    const res = await api().patch("/api/studio/settings").set(admin.auth).send({ timeZone: "Europe/Berlin" });
    expect(res.status).toBe(200);
    expect(res.body.timeZone).toBe("Europe/Berlin");
    expect((await read(staff)).body.timeZone).toBe("Europe/Berlin");
  });

  it("take a zone by either of its names, as browsers and servers list it differently", async () => {
    for (const timeZone of ["Asia/Kolkata", "Asia/Calcutta", "Europe/Kyiv", "Europe/Kiev"]) {
      const res = await api().patch("/api/studio/settings").set(admin.auth).send({ timeZone });
      expect(res.status, timeZone).toBe(200);
      expect(res.body.timeZone).toBe(timeZone);
    }
  });

  it("give the name clients see in mails too, once saved", async () => {
    const id = await insertProjectRow(t.ctx, { name: "Lima Wedding" });
    const draft = await api().get(`/api/projects/${id}/sending`).set(staff.auth);
    expect(draft.status).toBe(200);
    expect(draft.body.subject).toBe("Your photos from Lumen & Co: Lima Wedding");
  });

  it.each([
    [{ name: "" }, "name", "Name is required"],
    [{ name: "x".repeat(101) }, "name", "Name must be at most 100 characters"],
    [{ name: "Lumen\u0007Studio" }, "name", "Name must be on one line, without control characters"],
    [{ accentColor: "red" }, "accentColor", "Accent colour must be #rrggbb"],
    [{ accentColor: "#12345" }, "accentColor", "Accent colour must be #rrggbb"],
    [{ accentColor: "#1234567" }, "accentColor", "Accent colour must be #rrggbb"],
    [{ accentColor: "#12345g" }, "accentColor", "Accent colour must be #rrggbb"],
    [{ accentColor: 255 }, "accentColor", "Accent colour must be #rrggbb"],
    [{ contactEmail: "hello@" }, "contactEmail", "Invalid email format"],
    [{ contactEmail: "a\n@b.test" }, "contactEmail", "Invalid email format"],
    [{ contactPhone: "call us" }, "contactPhone", "A phone number may hold only digits, spaces and + ( ) - . /"],
    [{ contactWebsite: "javascript:alert(1)" }, "contactWebsite", "Web site must be an http:// or https:// address"],
    [{ timeZone: "Mars/Olympus" }, "timeZone", "Time zone must be one of the IANA time zones, such as Europe/Berlin"],
    [{ timeZone: 3 }, "timeZone", "Time zone must be one of the IANA time zones, such as Europe/Berlin"],
    [{ contactWebsite: "lumen" }, "contactWebsite", "Web site must be an http:// or https:// address"],
    [
      { contactWebsite: "https://user:pw@lumen.test" },
      "contactWebsite",
      "Web site must be an http:// or https:// address",
    ],
    [
      { contactWebsite: `https://lumen.test/${"a".repeat(200)}` },
      "contactWebsite",
      "Web site must be at most 200 characters",
    ],
    [
      { contactWebsite: "https://lumen.test/\u0085" },
      "contactWebsite",
      "Web site must be on one line, without control characters",
    ],
  ])("refuse %j with 400 and change nothing", async (body, field, message) => {
    const before = (await read(admin)).body;
    const res = await put(admin, body);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ statusCode: 400, message, errors: { [field]: message } });
    expect((await read(admin)).body).toEqual(before);
  });

  it("refuse a body that is not a JSON object", async () => {
    const res = await api()
      .put("/api/studio/settings")
      .set(admin.auth)
      .set("Content-Type", "application/json")
      .send("[1]");
    expect(res.status).toBe(400);
  });
});

describe("the studio's logo", () => {
  it("is stored re-encoded as a WebP of at most 512 px and served publicly from our own origin", async () => {
    const res = await putLogo(admin, await makeImage("png", 1600, 400));
    expect(res.status).toBe(200);
    expect(res.body.logoUrl).toMatch(/^\/d\/logo\/[0-9a-f]{32}\.webp$/);
    const logo = await getBinary(t.app, res.body.logoUrl);
    expect(logo.status).toBe(200);
    expect(logo.headers["content-type"]).toBe("image/webp");
    expect(logo.headers["x-content-type-options"]).toBe("nosniff");
    expect(logo.headers["cache-control"]).toContain("immutable");
    const meta = await sharp(logo.body as Buffer).metadata();
    expect(meta).toMatchObject({ format: "webp", width: 512, height: 128 });
    expect(logoFiles()).toHaveLength(1);
  });

  it("replaces the previous file, and refuses SVG, other files and oversized uploads leaving the logo as it was", async () => {
    const first = (await read(admin)).body.logoUrl as string;
    const second = await putLogo(admin, await makeImage("jpeg", 300, 300), "image/jpeg");
    expect(second.status).toBe(200);
    expect(second.body.logoUrl).not.toBe(first);
    expect((await api().get(first)).status).toBe(404);
    expect(logoFiles()).toHaveLength(1);

    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
    for (const [bytes, type, status] of [
      [svg, "image/svg+xml", 415],
      [Buffer.from("not an image at all"), "image/png", 415],
      [Buffer.alloc(0), "image/png", 415],
      [Buffer.alloc(3 * 1024 * 1024, 1), "image/png", 413],
    ] as const) {
      const res = await putLogo(admin, bytes, type);
      expect(res.status, type).toBe(status);
      expect(res.body.statusCode).toBe(status);
    }
    expect((await read(admin)).body.logoUrl).toBe(second.body.logoUrl);
    expect(logoFiles()).toHaveLength(1);
  });

  it("is decoded within the photos' decode budget: one too large to decode is refused with that reason", async () => {
    const small = await createTestApp({ MAX_DECODE_BYTES: "1000000" });
    try {
      const owner = await createUser(small.ctx, { role: "admin" });
      const png = await sharp({ create: { width: 1000, height: 1000, channels: 3, background: "#888888" } })
        .png()
        .toBuffer();
      const res = await request(small.app)
        .put("/api/studio/logo")
        .set(owner.auth)
        .set("Content-Type", "image/png")
        .send(png);
      expect(res.status).toBe(415);
      expect(res.body.message).toBe("Image is too large to process");
      expect((await request(small.app).get("/api/studio/settings").set(owner.auth)).body.logoUrl).toBeNull();
    } finally {
      await small.close();
    }
  });

  it("is removed by an admin, file and all", async () => {
    const url = (await read(admin)).body.logoUrl as string;
    const res = await api().delete("/api/studio/logo").set(admin.auth);
    expect(res.status).toBe(200);
    expect(res.body.logoUrl).toBeNull();
    expect((await api().get(url)).status).toBe(404);
    expect(logoFiles()).toEqual([]);
  });

  it("serves nothing under names it did not make", async () => {
    for (const name of ["..%2F..%2Fdb.sqlite3", "abc.webp", `${"0".repeat(32)}.png`, `${"0".repeat(32)}.webp`])
      expect((await api().get(`/d/logo/${name}`)).status, name).toBe(404);
  });
});
