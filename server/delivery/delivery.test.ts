import fs from "node:fs";
import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, createUser, type TestApp, type TestUser } from "../test/harness";
import { isStored, readStored, writeStored } from "../test/stored-files";
import { inObjectStorage } from "../test/test-storage";
import { insertAttachmentRow, insertClientRow, insertProjectRow } from "../test/rows";
import type { ResourceChange } from "../events/bus";
import { cookiesOf, locate, publishDelivery, type PublishedDelivery } from "./test-fixtures";
import { getBinary } from "../test/binary-body";

let t: TestApp;
let staff: TestUser;

beforeAll(async () => {
  t = await createTestApp({ STUDIO_NAME: "Lumen & <Co>" });
  staff = await createUser(t.ctx, { email: "staff.member@studio.test" });
});
afterAll(async () => {
  await t.close();
});

const api = () => request(t.app);
const get = (url: string, cookie?: string) => getBinary(t.app, url, cookie ? { Cookie: cookie } : {});
const html = (res: request.Response) => (res.body as Buffer).toString("utf8");
const settings = (id: number, body: unknown) =>
  api()
    .put(`/api/projects/${id}/delivery`)
    .set(staff.auth)
    .send(body as object);
const unlock = (d: PublishedDelivery, passcode: string) =>
  api().post(`/d/${d.token}/unlock`).type("form").send({ passcode });
/** Every URL of a delivery that serves something of the project. */
const fileUrls = (d: PublishedDelivery) => [
  `${d.page}/p/1`,
  `${d.page}/p/1/download`,
  `${d.page}/t/1`,
  `${d.page}/v/1`,
  `${d.page}/all.zip`,
  d.zipUrl,
];

describe("the delivery page", () => {
  let d: PublishedDelivery;
  let clientName: string;
  beforeAll(async () => {
    clientName = "Hidden Client Ltd";
    const clientId = await insertClientRow(t.ctx, clientName);
    d = await publishDelivery(t, staff, {
      name: `<b>Smith & "Jones"</b>`,
      clientId,
      photoNames: ["a.jpg", `<img src=x onerror=alert(1)>.jpg`, "c.jpg"],
    });
  });

  it("is listed on the project as deliveryUrl, the ZIP's random name (128 bits or more)", async () => {
    const res = await api().get(`/api/projects/${d.id}`).set(staff.auth);
    expect(res.body.deliveryUrl).toBe(d.page);
    expect(d.token).toMatch(/^[A-Za-z0-9_-]{22,}$/);
    expect(res.body.downloadUrl).toBe(`/published/${d.token}.zip`);
    expect(res.body.delivery).toEqual({
      expiresAt: null,
      hasPasscode: false,
      views: 0,
      downloads: 0,
      lastDownloadAt: null,
      allowDownloads: true,
      offerWebSize: false,
      favouritesLimit: null,
      language: null,
    });
  });

  it("shows the studio, the escaped project name, the count, the sizes, every thumbnail and the ZIP link", async () => {
    const res = await get(d.page);
    expect(res.status).toBe(200);
    expect(res.headers["content-type"]).toBe("text/html; charset=utf-8");
    const page = html(res);
    expect(page).toContain("Lumen &#38; &#60;Co&#62;");
    expect(page).toContain("&#60;b&#62;Smith &#38; &#34;Jones&#34;&#60;/b&#62;");
    expect(page).not.toContain("<b>Smith");
    expect(page).not.toContain("<img src=x");
    expect(page).toContain("3 photos");
    const zipSize = (await readStored(t.ctx, d.zipKey, "published")).length;
    expect(page).toContain(`Download all (ZIP, ${(zipSize / 1024).toFixed(1)} KB)`);
    expect(page.match(/<img src="t\/\d+"/g)).toEqual(['<img src="t/1"', '<img src="t/2"', '<img src="t/3"']);
    expect(page.match(/loading="lazy"/g)).toHaveLength(3);
    expect(page).toContain(`<base href="/d/${d.token}/">`);
    expect(page).toContain('href="all.zip"');
  });

  it("carries no ids, client or staff data, loads no admin bundle, no inline script, and stays under 50 kB", async () => {
    const page = html(await get(d.page));
    const row = await t.ctx.db("attachments").where({ project_id: d.id }).first();
    for (const secret of [
      clientName,
      staff.email,
      staff.uid,
      row.storage_key,
      row.checksum,
      "/api/",
      "/assets/index",
      `"id"`,
    ]) {
      expect(page, secret).not.toContain(secret);
    }
    // Besides the two scripts, only the texts they show: JSON, which a browser never runs.
    expect(page.match(/<script[^>]*>/g)).toEqual([
      '<script src="/d/assets/delivery.js" defer>',
      '<script src="/d/assets/favourites.js" defer>',
      '<script type="application/json" id="pd-texts">',
    ]);
    expect(Buffer.byteLength(page)).toBeLessThan(50 * 1024);
    const js = await api().get("/d/assets/delivery.js");
    const css = await api().get("/d/assets/delivery.css");
    expect(js.status).toBe(200);
    expect(css.status).toBe(200);
    expect(js.headers["content-type"]).toMatch(/javascript/);
    expect(Buffer.byteLength(page) + js.text.length + css.text.length).toBeLessThan(50 * 1024);
    const csp = (await api().get(d.page)).headers["content-security-policy"];
    expect(csp).toContain("script-src 'self'");
  });

  it("serves each photo inline and as a download, and thumbnails, privately and only for that project", async () => {
    const photo = await get(`${d.page}/p/2`);
    expect(photo.status).toBe(200);
    expect(photo.headers["content-type"]).toBe("image/jpeg");
    expect(photo.headers["cache-control"]).toMatch(/^private/);
    expect(photo.headers["content-disposition"]).toMatch(/^inline/);
    expect((photo.body as Buffer).equals(d.photos[1])).toBe(true);
    const download = await get(`${d.page}/p/3/download`);
    expect(download.headers["content-disposition"]).toBe("attachment; filename=c.jpg");
    expect((download.body as Buffer).equals(d.photos[2])).toBe(true);
    const thumb = await get(`${d.page}/t/1`);
    expect(thumb.status).toBe(200);
    expect(thumb.headers["cache-control"]).toMatch(/^private/);
    for (const bad of [
      `${d.page}/p/4`,
      `${d.page}/p/0`,
      `${d.page}/p/-1`,
      `${d.page}/p/1e3`,
      `${d.page}/t/99`,
      `${d.page}/p/..%2F..%2Fdb.sqlite3`,
    ]) {
      expect((await api().get(bad)).status, bad).toBe(404);
    }
  });

  it("answers a readable 404 for unknown, malformed and unrelated tokens", async () => {
    for (const url of [
      "/d/" + "A".repeat(22),
      "/d/short",
      "/d/..%2F..",
      "/d/" + "A".repeat(22) + "/p/1",
      "/d/" + "A".repeat(22) + "/all.zip",
    ]) {
      const res = await api().get(url);
      expect(res.status, url).toBe(404);
    }
    const page = await api().get("/d/" + "A".repeat(22));
    expect(page.text).toContain("This delivery link does not exist");
  });

  it("counts a page view and announces it as a project change", async () => {
    const seen: ResourceChange[] = [];
    const stop = t.ctx.events.onResourceChanged((c) => seen.push(c));
    const before = (await api().get(`/api/projects/${d.id}`).set(staff.auth)).body.delivery.views;
    await get(d.page);
    stop();
    expect((await api().get(`/api/projects/${d.id}`).set(staff.auth)).body.delivery.views).toBe(before + 1);
    expect(seen).toContainEqual({ resource: "projects", type: "updated", ids: [d.id] });
    expect((await api().head(d.page)).status).toBe(200);
    expect((await api().get(`/api/projects/${d.id}`).set(staff.auth)).body.delivery.views).toBe(before + 1);
  });

  it("answers a plain 404 for an asset it does not have", async () => {
    const res = await api().get("/d/assets/missing.js");
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ statusCode: 404, message: "Not found" });
  });

  it("stays under 50 kB for a 250-photo delivery with long file names: its first 200 photos, then a link to the rest", async () => {
    const token = "Z".repeat(22);
    const id = await insertProjectRow(t.ctx, {
      name: "Big day",
      publishStatus: "published",
      publishedZipPath: `published/${token}.zip`,
    });
    await writeStored(t.ctx, `${token}.zip`, "PK", "published");
    for (let i = 1; i <= 250; i++)
      await insertAttachmentRow(t.ctx, id, {
        originalName: `DSC_${String(i).padStart(5, "0")}-edited.jpg`,
        size: 5_000_000,
      });
    const res = await get(`/d/${token}`);
    expect(res.status).toBe(200);
    expect(html(res).match(/<li>/g)).toHaveLength(200);
    expect(html(res)).toContain('href="?from=201">More photos</a>');
    expect((res.body as Buffer).length).toBeLessThan(50 * 1024);
  });
});

describe("link settings", () => {
  it("needs a signed-in, approved user", async () => {
    const d = await publishDelivery(t, staff);
    expect((await api().put(`/api/projects/${d.id}/delivery`).send({ expiresAt: null })).status).toBe(401);
    expect((await api().post(`/api/projects/${d.id}/delivery/regenerate`)).status).toBe(401);
    const pending = await createUser(t.ctx, { hasAccess: false });
    expect((await api().post(`/api/projects/${d.id}/delivery/regenerate`).set(pending.auth)).status).toBe(403);
  });

  it("refuses bad values with a 400 that changes nothing", async () => {
    const d = await publishDelivery(t, staff);
    const cases: Array<[unknown, string]> = [
      [{ passcode: "abc" }, "passcode"],
      [{ passcode: "x".repeat(65) }, "passcode"],
      [{ passcode: 1234 }, "passcode"],
      [{ expiresAt: "tomorrow" }, "expiresAt"],
      [{ expiresAt: 5 }, "expiresAt"],
    ];
    for (const [body, field] of cases) {
      const res = await settings(d.id, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(Object.keys(res.body.errors)).toEqual([field]);
    }
    expect((await settings(d.id, [1])).status).toBe(400);
    const row = await t.ctx.db("projects").where({ id: d.id }).first();
    expect([row.delivery_expires_at, row.delivery_passcode_hash]).toEqual([null, null]);
    expect((await settings(999999, { expiresAt: null })).status).toBe(404);
  });

  it("stores the passcode as a scrypt hash, shows only hasPasscode, and leaves absent fields alone", async () => {
    const d = await publishDelivery(t, staff);
    const expiresAt = new Date(Date.now() + 86_400_000).toISOString();
    const res = await settings(d.id, { expiresAt, passcode: "open sesame" });
    expect(res.status).toBe(200);
    expect(res.body.delivery).toMatchObject({ expiresAt, hasPasscode: true });
    expect(JSON.stringify(res.body)).not.toContain("open sesame");
    const row = await t.ctx.db("projects").where({ id: d.id }).first();
    expect(row.delivery_passcode_hash).toMatch(/^scrypt\$/);
    expect((await settings(d.id, { expiresAt: null })).body.delivery).toMatchObject({
      expiresAt: null,
      hasPasscode: true,
    });
    expect((await settings(d.id, { passcode: null })).body.delivery).toMatchObject({
      expiresAt: null,
      hasPasscode: false,
    });
  });
});

describe("expiry", () => {
  it("answers 410 for the page, every photo, thumbnail and both ZIP links once the link has expired", async () => {
    const d = await publishDelivery(t, staff);
    expect((await settings(d.id, { expiresAt: new Date(Date.now() + 60_000).toISOString() })).status).toBe(200);
    expect((await get(d.page)).status).toBe(200);
    // The API refuses a past expiry, so the link is made to have expired as time would (and announced,
    // so no cached copy of the link is kept).
    await t.ctx
      .db("projects")
      .where({ id: d.id })
      .update({ delivery_expires_at: new Date(Date.now() - 1000).toISOString() });
    t.ctx.events.resourceChanged({ resource: "projects", type: "updated", ids: [d.id] });
    const page = await api().get(d.page);
    expect(page.status).toBe(410);
    expect(page.text).toContain("This delivery has expired");
    expect(page.text).not.toContain("Wedding");
    for (const url of fileUrls(d)) {
      const res = await api().get(url);
      expect(res.status, url).toBe(410);
      expect(res.body, url).toEqual({ statusCode: 410, message: "This delivery has expired" });
    }
    expect((await unlock(d, "anything")).status).toBe(410);
  });
});

describe("passcode", () => {
  let d: PublishedDelivery;
  beforeAll(async () => {
    d = await publishDelivery(t, staff, { name: "Private wedding" });
    expect((await settings(d.id, { passcode: "correct horse" })).status).toBe(200);
  });

  it("shows only the passcode form, an ordinary form posting `passcode` to /unlock", async () => {
    const res = await get(d.page);
    expect(res.status).toBe(200);
    const page = html(res);
    expect(page).toContain(`<form method="post" action="/d/${d.token}/unlock">`);
    expect(page).toContain('name="passcode"');
    expect(page).not.toContain("Private wedding");
    expect(page).not.toContain("t/1");
    expect(page).not.toContain("all.zip");
  });

  it("serves no photo, thumbnail or ZIP (under either link) without the passcode's cookie", async () => {
    for (const url of fileUrls(d)) {
      const res = await api().get(url);
      expect(res.status, url).toBe(401);
      expect(res.body, url).toEqual({ statusCode: 401, message: "Passcode required" });
    }
  });

  it("sends a browser that opens the ZIP link itself to the passcode form, without the ZIP", async () => {
    const res = await api().get(d.zipUrl).set("Accept", "text/html,application/xhtml+xml,*/*;q=0.8");
    expect(res.status).toBe(303);
    expect(res.headers.location).toBe(d.page);
    expect(res.headers["content-type"]).not.toMatch(/zip/);
  });

  it("answers a wrong passcode with 401 'Wrong passcode' and the form again", async () => {
    const res = await unlock(d, "wrong horse");
    expect(res.status).toBe(401);
    expect(res.text).toContain("Wrong passcode");
    expect(res.headers["set-cookie"]).toBeUndefined();
  });

  it("trades the right passcode for a signed HttpOnly, SameSite=Lax cookie that opens the page, photos and both ZIP links", async () => {
    const res = await unlock(d, "correct horse");
    expect(res.status).toBe(303);
    expect(res.headers.location).toBe(d.page);
    const set = res.headers["set-cookie"] as unknown as string[];
    expect(set).toHaveLength(2);
    for (const cookie of set) {
      expect(cookie).toMatch(/HttpOnly/);
      expect(cookie).toMatch(/SameSite=Lax/);
      expect(cookie).not.toMatch(/Secure/);
      expect(cookie).toMatch(/Expires=/);
    }
    expect(set.map((c) => /Path=([^;]+)/.exec(c)![1]).sort()).toEqual([d.page, `/published/${d.token}.zip`]);
    const cookie = cookiesOf(res);
    expect(html(await get(d.page, cookie))).toContain("Private wedding");
    for (const url of fileUrls(d)) expect((await get(url, cookie)).status, url).toBe(200);
    const zip = await get(d.zipUrl, cookie);
    expect((zip.body as Buffer).equals(await readStored(t.ctx, d.zipKey, "published"))).toBe(true);
  });

  it("marks the cookie Secure on an HTTPS request", async () => {
    const secure = await createTestApp({ TRUST_PROXY: "1" });
    try {
      const user = await createUser(secure.ctx);
      const s = await publishDelivery(secure, user);
      await request(secure.app).put(`/api/projects/${s.id}/delivery`).set(user.auth).send({ passcode: "1234" });
      const res = await request(secure.app)
        .post(`/d/${s.token}/unlock`)
        .set("X-Forwarded-Proto", "https")
        .type("form")
        .send({ passcode: "1234" });
      expect(res.status).toBe(303);
      for (const cookie of res.headers["set-cookie"] as unknown as string[]) expect(cookie).toMatch(/; Secure/);
    } finally {
      await secure.close();
    }
  });

  it("refuses a forged, altered or stale cookie", async () => {
    const good = cookiesOf(await unlock(d, "correct horse"));
    const [, value] = good.split("=");
    const [exp, sig] = value.split(".");
    const flipped = sig.slice(0, -1) + (sig.endsWith("A") ? "B" : "A");
    const later = String(Number(exp) + 3600);
    for (const cookie of [
      `photodrop_delivery=${exp}.${flipped}`,
      `photodrop_delivery=${later}.${sig}`,
      "photodrop_delivery=1.x",
      `photodrop_delivery=1.${sig}`,
    ]) {
      expect((await api().get(`${d.page}/p/1`).set("Cookie", cookie)).status, cookie).toBe(401);
    }
    // A new passcode ends the cookies the old one earned.
    await settings(d.id, { passcode: "battery staple" });
    expect((await api().get(`${d.page}/p/1`).set("Cookie", good)).status).toBe(401);
    await settings(d.id, { passcode: "correct horse" });
  });

  it("answers 429 after 10 wrong passcodes for the link, even to the right one, and leaves other links alone", async () => {
    const locked = await publishDelivery(t, staff);
    const other = await publishDelivery(t, staff);
    await settings(locked.id, { passcode: "right one" });
    await settings(other.id, { passcode: "right one" });
    for (let i = 0; i < 10; i++) expect((await unlock(locked, `wrong ${i}`)).status).toBe(401);
    const eleventh = await unlock(locked, "wrong again");
    expect(eleventh.status).toBe(429);
    expect(Number(eleventh.headers["retry-after"])).toBeGreaterThan(14 * 60);
    expect((await unlock(locked, "right one")).status).toBe(429);
    expect((await unlock(other, "right one")).status).toBe(303);
  });
});

describe("regenerate", () => {
  it("renames the ZIP (same bytes), and the old page, photos and ZIP answer 404 at once while the new ones work", async () => {
    const old = await publishDelivery(t, staff);
    const bytes = await readStored(t.ctx, old.zipKey, "published");
    // On disk a rename keeps the file; object storage copies it.
    const inode = inObjectStorage() ? undefined : fs.statSync(old.zipFile).ino;
    const res = await api().post(`/api/projects/${old.id}/delivery/regenerate`).set(staff.auth);
    expect(res.status).toBe(200);
    const now = await locate(t, old.id);
    expect(now.token).not.toBe(old.token);
    expect(res.body.deliveryUrl).toBe(now.page);
    expect(res.body.downloadUrl).toBe(now.zipUrl);
    expect(await isStored(t.ctx, old.zipKey, "published")).toBe(false);
    expect((await readStored(t.ctx, now.zipKey, "published")).equals(bytes)).toBe(true);
    if (inode !== undefined) expect(fs.statSync(now.zipFile).ino).toBe(inode);
    for (const url of [old.page, ...fileUrls(old)]) expect((await api().get(url)).status, url).toBe(404);
    expect((await get(now.page)).status).toBe(200);
    for (const url of fileUrls(now)) expect((await get(url)).status, url).toBe(200);
    expect(((await get(now.zipUrl)).body as Buffer).equals(bytes)).toBe(true);
  });

  it("asks for the passcode again on the new link", async () => {
    const d = await publishDelivery(t, staff);
    await settings(d.id, { passcode: "1234" });
    const cookie = cookiesOf(await unlock(d, "1234"));
    await api().post(`/api/projects/${d.id}/delivery/regenerate`).set(staff.auth);
    const now = await locate(t, d.id);
    expect((await api().get(`${now.page}/p/1`).set("Cookie", cookie)).status).toBe(401);
  });

  it("answers 409 for a project that is not published and 404 for none", async () => {
    const d = await publishDelivery(t, staff);
    await api().delete(`/api/projects/${d.id}/publish`).set(staff.auth);
    const res = await api().post(`/api/projects/${d.id}/delivery/regenerate`).set(staff.auth);
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ statusCode: 409, message: "Project is not published" });
    expect((await api().post(`/api/projects/999999/delivery/regenerate`).set(staff.auth)).status).toBe(404);
  });
});

describe("unpublish and delete", () => {
  it("end the photos and ZIP at once, and the page (an unpublished one's says it is being updated)", async () => {
    const unpublished = await publishDelivery(t, staff);
    const deleted = await publishDelivery(t, staff);
    expect((await api().delete(`/api/projects/${unpublished.id}/publish`).set(staff.auth)).status).toBe(200);
    expect((await api().delete(`/api/projects/${deleted.id}`).set(staff.auth)).status).toBe(204);
    // Nothing is served behind either: the unpublished one's files are "being updated" too.
    for (const [d, status] of [
      [unpublished, 503],
      [deleted, 404],
    ] as const) {
      for (const url of fileUrls(d)) expect((await api().get(url)).status, url).toBe(status);
    }
    // The unpublished project keeps its link, which says it is being updated (republish.test.ts).
    expect((await api().get(unpublished.page)).status).toBe(503);
    expect((await api().get(deleted.page)).status).toBe(404);
    const project = (await api().get(`/api/projects/${unpublished.id}`).set(staff.auth)).body;
    expect(project.deliveryUrl).toBeNull();
  });
});
