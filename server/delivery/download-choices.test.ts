import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, createUser, type TestApp, type TestUser } from "../test/harness";
import { insertProjectRow } from "../test/rows";
import { until } from "../test/wait";
import { webSizeZipKey } from "../storage/published-zips";
import { publishedZipCopy, readStored } from "../test/stored-files";
import { addPhoto, readZip, recordPublishEvents } from "../publish/test-fixtures";
import { cookiesOf, downloadsOf, locate, publishDelivery, type PublishedDelivery } from "./test-fixtures";
import { getBinary } from "../test/binary-body";
import { recordingsSettled } from "../activity/activity.service";
import { activityOf } from "../sending/test-fixtures";

let t: TestApp;
let staff: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  staff = await createUser(t.ctx);
});
afterAll(async () => {
  await t.close();
});

const api = () => request(t.app);
const get = (url: string, headers: Record<string, string> = {}) => getBinary(t.app, url, headers);
const settings = (id: number, body: object) => api().put(`/api/projects/${id}/delivery`).set(staff.auth).send(body);
const downloads = (id: number) => downloadsOf(t, id);
const previewAt = async (id: number, n: number) => {
  const rows = await t.ctx
    .db("attachments")
    .where({ project_id: id })
    .orderBy([{ column: "created_at" }, { column: "id" }])
    .select("preview_key");
  return readStored(t.ctx, rows[n - 1].preview_key);
};

/** A delivery offering web size from its publish, so it has the web-size ZIP (`webZip` its key). */
async function webSizeDelivery(name = "Garden party"): Promise<PublishedDelivery & { webZip: string }> {
  const id = await insertProjectRow(t.ctx, { name });
  expect((await settings(id, { offerWebSize: true })).status).toBe(200);
  const photos: Buffer[] = [];
  for (const photo of ["one.jpg", "two.png", "three.jpg"]) photos.push((await addPhoto(t.ctx, id, photo, 200)).bytes);
  const events = recordPublishEvents(t.ctx, id);
  expect((await api().post(`/api/projects/${id}/publish`).set(staff.auth)).status).toBe(202);
  await events.next("publish_completed", 60_000);
  events.stop();
  const d = await locate(t, id, photos);
  return { ...d, webZip: webSizeZipKey(d.zipKey) };
}

/** Every URL that hands out an original or a ZIP, the web size's included. */
const downloadUrls = (d: PublishedDelivery) => [
  `${d.page}/p/1`,
  `${d.page}/p/1/download`,
  `${d.page}/v/1/download`,
  `${d.page}/all.zip`,
  `${d.page}/web.zip`,
  d.zipUrl,
];

describe("the settings", () => {
  it("keep today's behaviour for a project that never set them: downloads on, web size off", async () => {
    const d = await publishDelivery(t, staff);
    const res = await api().get(`/api/projects/${d.id}`).set(staff.auth);
    expect(res.body.delivery).toMatchObject({ allowDownloads: true, offerWebSize: false });
    const page = (await api().get(d.page)).text;
    expect(page).toMatch(/>Download all \(ZIP, [\d.]+ KB\)</);
    expect(page).not.toContain("web.zip");
    expect(page).toContain('data-downloads="original"');
  });

  it("are changed one at a time, the others left as they are, and refuse anything but true or false", async () => {
    const d = await publishDelivery(t, staff);
    expect((await settings(d.id, { offerWebSize: true })).body.delivery).toMatchObject({
      allowDownloads: true,
      offerWebSize: true,
    });
    expect((await settings(d.id, { allowDownloads: false })).body.delivery).toMatchObject({
      allowDownloads: false,
      offerWebSize: true,
    });
    for (const body of [{ allowDownloads: "no" }, { offerWebSize: 1 }, { allowDownloads: null }]) {
      const res = await settings(d.id, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
    const row = await t.ctx.db("projects").where({ id: d.id }).first();
    expect([Boolean(row.delivery_allow_downloads), Boolean(row.delivery_offer_web_size)]).toEqual([false, true]);
  });
});

describe("web size", () => {
  let d: PublishedDelivery & { webZip: string };
  beforeAll(async () => {
    d = await webSizeDelivery();
  });

  it("offers both ZIPs on the page with their sizes, and the viewer both downloads", async () => {
    const page = (await api().get(d.page)).text;
    const kb = async (key: string) => `${((await readStored(t.ctx, key, "published")).length / 1024).toFixed(1)} KB`;
    expect(page).toContain(`href="all.zip" download>Download all (ZIP, ${await kb(d.zipKey)})</a>`);
    expect(page).toContain(`href="web.zip" download>Download web size (ZIP, ${await kb(d.webZip)})</a>`);
    expect(page).toContain('data-downloads="original web"');
    // The viewer's words come with the page, in its language (#pd-texts).
    expect(page).toContain('"downloadWebSize":"Download web size"');
    const script = (await api().get("/d/assets/delivery.js")).text;
    expect(script).toContain('t("viewer.downloadWebSize")');
    expect(script).toContain('web.href = "v/" + n + "/download";');
  });

  it("serves the web-size ZIP at web.zip: the previews, named after the project, with Range", async () => {
    const res = await get(`${d.page}/web.zip`);
    expect(res.status).toBe(200);
    expect(res.headers["content-type"]).toBe("application/zip");
    expect(res.headers["content-disposition"]).toBe('attachment; filename="Garden party (web size).zip"');
    expect(res.headers["accept-ranges"]).toBe("bytes");
    const body = res.body as Buffer;
    expect(body.equals(await readStored(t.ctx, d.webZip, "published"))).toBe(true);
    const entries = await readZip(await publishedZipCopy(t.ctx, d.webZip));
    expect(entries.map((e) => e.name)).toEqual(["one-web.jpg", "two-web.jpg", "three-web.jpg"]);
    for (const [i, entry] of entries.entries()) expect(entry.content.equals(await previewAt(d.id, i + 1))).toBe(true);

    const part = await get(`${d.page}/web.zip`, { Range: "bytes=10-99" });
    expect(part.status).toBe(206);
    expect(part.headers["content-range"]).toBe(`bytes 10-99/${body.length}`);
    expect((part.body as Buffer).equals(body.subarray(10, 100))).toBe(true);
    expect((await get(`${d.page}/web.zip`, { "If-None-Match": res.headers.etag })).status).toBe(304);
  });

  it("tells the size on the activity timeline: the web-size ZIP and photo apart from the originals", async () => {
    const sized = await webSizeDelivery("Sized");
    await get(`${sized.page}/web.zip`);
    await get(`${sized.page}/all.zip`);
    await get(`${sized.page}/v/1/download`);
    await get(`${sized.page}/p/1/download`);
    const settled = async () => {
      await recordingsSettled(t.ctx);
      return activityOf(t, staff, sized.id);
    };
    const activity = await until(settled, (list) => list.length === 4);
    const told = activity.map((a) => `${a.type} ${a.size} ${a.photo ?? ""}`.trim()).sort();
    expect(told).toEqual([
      "download original",
      "download web",
      "photo_download original one.jpg",
      "photo_download web one-web.jpg",
    ]);
  });

  it("counts a whole web-size ZIP as a download, once however many ranges it took, and a part alone not at all", async () => {
    const size = (await readStored(t.ctx, d.webZip, "published")).length;
    const before = await downloads(d.id);
    await get(`${d.page}/web.zip`, { Range: "bytes=0-99", "User-Agent": "part-only" });
    await get(`${d.page}/web.zip`, { Range: "bytes=0-999", "User-Agent": "resumer" });
    await get(`${d.page}/web.zip`, { Range: `bytes=500-${size - 1}`, "User-Agent": "resumer" });
    await until(
      () => downloads(d.id),
      (n) => n === before + 1,
    );
    // The originals' bytes and the web size's are different files: halves of each make no download.
    await get(`${d.page}/all.zip`, { Range: "bytes=0-99", "User-Agent": "mixer" });
    await get(`${d.page}/web.zip`, { Range: `bytes=100-${size - 1}`, "User-Agent": "mixer" });
    // Both responses have closed and any count they made is written.
    await recordingsSettled(t.ctx);
    expect(await downloads(d.id)).toBe(before + 1);
  });

  it("serves each photo's web size at v/<n>/download: its preview as an attachment named <name>-web.jpg", async () => {
    const res = await get(`${d.page}/v/2/download`);
    expect(res.status).toBe(200);
    expect(res.headers["content-type"]).toBe("image/jpeg");
    expect(res.headers["content-disposition"]).toBe("attachment; filename=two-web.jpg");
    expect((res.body as Buffer).equals(await previewAt(d.id, 2))).toBe(true);
    const original = await get(`${d.page}/p/2/download`);
    expect(original.headers["content-disposition"]).toBe("attachment; filename=two.png");
    expect((original.body as Buffer).equals(d.photos[1])).toBe(true);
  });

  it("never serves a photo of another project: positions end at this delivery's last photo", async () => {
    const bigger = await publishDelivery(t, staff, { photoNames: ["a.jpg", "b.jpg", "c.jpg", "d.jpg", "e.jpg"] });
    expect((await settings(bigger.id, { offerWebSize: true })).status).toBe(200);
    expect((await get(`${bigger.page}/v/5/download`)).status).toBe(200);
    for (const url of [`${d.page}/v/4/download`, `${d.page}/v/0/download`, `/d/${"x".repeat(22)}/v/1/download`])
      expect((await get(url)).status, url).toBe(404);
    expect((await get(`/published/${d.token}-web.zip`)).status).toBe(404);
    expect((await get(`/d/${d.token}-web/all.zip`)).status).toBe(404);
  });

  it("turned off, answers 404 for the web-size ZIP and downloads and leaves them off the page", async () => {
    const other = await webSizeDelivery("Switched off");
    expect((await settings(other.id, { offerWebSize: false })).status).toBe(200);
    for (const url of [`${other.page}/web.zip`, `${other.page}/v/1/download`])
      expect((await get(url)).status, url).toBe(404);
    expect((await get(`${other.page}/v/1`)).status).toBe(200);
    const page = (await api().get(other.page)).text;
    expect(page).not.toContain("web.zip");
    expect(page).toContain('data-downloads="original"');
  });

  it("turned on after publishing, offers each photo's web size at once and the ZIP only from the next publish", async () => {
    const later = await publishDelivery(t, staff, { name: "Later" });
    expect((await settings(later.id, { offerWebSize: true })).status).toBe(200);
    const page = (await api().get(later.page)).text;
    expect(page).toContain('data-downloads="original web"');
    expect(page).not.toContain("web.zip");
    expect((await get(`${later.page}/web.zip`)).status).toBe(404);
    expect((await get(`${later.page}/v/1/download`)).status).toBe(200);
  });
});

describe("a view-only link (downloads off)", () => {
  let d: PublishedDelivery & { webZip: string };
  beforeAll(async () => {
    d = await webSizeDelivery("Proofs");
    const res = await settings(d.id, { allowDownloads: false });
    expect(res.body.delivery).toMatchObject({ allowDownloads: false, offerWebSize: true });
    // Staff are not offered a 'Download ZIP' the link would refuse.
    expect(res.body.downloadUrl).toBeNull();
  });

  it("answers 404 for every original, web size and ZIP, under either link", async () => {
    for (const url of downloadUrls(d)) {
      const res = await get(url);
      expect(res.status, url).toBe(404);
      expect(JSON.parse((res.body as Buffer).toString()), url).toEqual({ statusCode: 404, message: "Not found" });
    }
    expect(await downloads(d.id)).toBe(0);
  });

  it("tells a browser opening a ZIP link, on the studio's page, that downloads are not offered", async () => {
    for (const url of [`${d.page}/all.zip`, `${d.page}/web.zip`, d.zipUrl]) {
      const res = await api().get(url).set("Accept", "text/html,application/xhtml+xml");
      expect(res.status, url).toBe(404);
      expect(res.headers["content-type"], url).toMatch(/^text\/html/);
      expect(res.text, url).toContain("The studio has not offered downloads for this gallery.");
      expect(res.text, url).not.toContain("statusCode");
    }
    const unknown = await api()
      .get(`/d/${"x".repeat(22)}/all.zip`)
      .set("Accept", "text/html");
    expect(unknown.status).toBe(404);
    expect(unknown.text).toContain("This download link does not exist");
  });

  it("still shows the thumbnails and previews, and a page with no download at all", async () => {
    for (const url of [`${d.page}/t/1`, `${d.page}/v/1`, `${d.page}/photos?from=1`])
      expect((await get(url)).status, url).toBe(200);
    const page = (await api().get(d.page)).text;
    expect(page).not.toMatch(/Download|all\.zip|web\.zip|data-downloads|\/download/);
    expect(page).toContain('<a href="v/1"><img src="t/1"');
    expect(page).not.toContain('href="p/');
    expect(page).toContain("The studio has not offered downloads for this gallery.");
  });

  it("opens again, every download with it, when downloads are turned back on", async () => {
    expect((await settings(d.id, { allowDownloads: true })).status).toBe(200);
    for (const url of downloadUrls(d)) expect((await get(url)).status, url).toBe(200);
    expect((await settings(d.id, { allowDownloads: false })).status).toBe(200);
  });
});

describe("expiry and passcode on the new routes", () => {
  it("answers 401 without the passcode's cookie and serves them with it", async () => {
    const d = await webSizeDelivery("Locked");
    expect((await settings(d.id, { passcode: "correct horse" })).status).toBe(200);
    for (const url of [`${d.page}/web.zip`, `${d.page}/v/1/download`]) {
      const res = await get(url);
      expect(res.status, url).toBe(401);
      expect(JSON.parse((res.body as Buffer).toString())).toEqual({ statusCode: 401, message: "Passcode required" });
    }
    const cookie = cookiesOf(await api().post(`/d/${d.token}/unlock`).type("form").send({ passcode: "correct horse" }));
    for (const url of [`${d.page}/web.zip`, `${d.page}/v/1/download`])
      expect((await get(url, { Cookie: cookie })).status, url).toBe(200);
    // View-only behind a passcode: the passcode is asked first, then nothing is there.
    expect((await settings(d.id, { allowDownloads: false })).status).toBe(200);
    expect((await get(`${d.page}/web.zip`)).status).toBe(401);
    expect((await get(`${d.page}/web.zip`, { Cookie: cookie })).status).toBe(404);
  });

  it("answers 410 once the link has expired", async () => {
    const d = await webSizeDelivery("Expiring");
    await t.ctx
      .db("projects")
      .where({ id: d.id })
      .update({ delivery_expires_at: new Date(Date.now() - 1000).toISOString() });
    t.ctx.events.resourceChanged({ resource: "projects", type: "updated", ids: [d.id] });
    for (const url of [`${d.page}/web.zip`, `${d.page}/v/1/download`]) {
      const res = await get(url);
      expect(res.status, url).toBe(410);
      expect(JSON.parse((res.body as Buffer).toString())).toEqual({
        statusCode: 410,
        message: "This delivery has expired",
      });
    }
  });
});
