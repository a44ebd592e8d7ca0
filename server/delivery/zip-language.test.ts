import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, createUser, type TestApp, type TestUser } from "../test/harness";
import { insertProjectRow } from "../test/rows";
import { getBinary } from "../test/binary-body";
import { addPhoto, recordPublishEvents } from "../publish/test-fixtures";
import { attachmentDisposition } from "../publish/download-name";
import { translator } from "../i18n/i18n";
import { LANGUAGE_COOKIE } from "../i18n/choose-language";
import type { Language } from "../i18n/languages";
import { locate, type PublishedDelivery } from "./test-fixtures";

/**
 * Issue 50: the ZIPs and their error pages in the visitor's language. The web size's ZIP is named
 * in it, so each language's name is its own answer (ETag, Vary); the originals' is not.
 */
let t: TestApp;
let staff: TestUser;
let d: PublishedDelivery;

const api = () => request(t.app);
const delivery = (id: number, body: object) =>
  api().put(`/api/projects/${id}/delivery`).set(staff.auth).send(body).expect(200);
const inLanguage = (lang: Language, headers: Record<string, string> = {}) => ({
  Cookie: `${LANGUAGE_COOKIE}=${lang}`,
  ...headers,
});
const webZipName = (lang: Language, project = "Garden party") =>
  `${translator(lang).t("gallery.webSizeZipName", { project })}.zip`;

beforeAll(async () => {
  t = await createTestApp();
  staff = await createUser(t.ctx);
  const id = await insertProjectRow(t.ctx, { name: "Garden party" });
  await delivery(id, { offerWebSize: true });
  const photos = [];
  for (const photo of ["one.jpg", "two.jpg"]) photos.push((await addPhoto(t.ctx, id, photo, 120)).bytes);
  const events = recordPublishEvents(t.ctx, id);
  expect((await api().post(`/api/projects/${id}/publish`).set(staff.auth)).status).toBe(202);
  await events.next("publish_completed", 60_000);
  events.stop();
  d = await locate(t, id, photos);
});
afterAll(async () => {
  await t.close();
});

describe("the web size's ZIP", () => {
  it("is named in the visitor's language, each language its own ETag, and says it varies by Cookie", async () => {
    const de = await getBinary(t.app, `${d.page}/web.zip`, inLanguage("de")).expect(200);
    const fr = await getBinary(t.app, `${d.page}/web.zip`, inLanguage("fr")).expect(200);
    expect(de.headers["content-disposition"]).toBe(attachmentDisposition(webZipName("de").slice(0, -4)));
    expect(fr.headers["content-disposition"]).toBe(attachmentDisposition(webZipName("fr").slice(0, -4)));
    expect(de.headers["content-disposition"]).toContain(encodeURIComponent("Webgröße"));
    expect((de.body as Buffer).equals(fr.body as Buffer)).toBe(true);
    expect(de.headers.etag).not.toBe(fr.headers.etag);
    expect(de.headers.etag).toMatch(/-de"$/);
    for (const res of [de, fr]) expect(res.headers.vary).toBe("Cookie, Accept-Language");

    // A copy kept in German is current for German, not for French: French gets its own name.
    const again = (lang: Language) =>
      getBinary(t.app, `${d.page}/web.zip`, inLanguage(lang, { "If-None-Match": de.headers.etag }));
    expect((await again("de")).status).toBe(304);
    const other = await again("fr");
    expect(other.status).toBe(200);
    expect(other.headers["content-disposition"]).toBe(fr.headers["content-disposition"]);
  });

  it("resumes with If-Range within one language, and starts over under another language's name", async () => {
    const whole = await getBinary(t.app, `${d.page}/web.zip`, inLanguage("de")).expect(200);
    const resume = (lang: Language) =>
      getBinary(t.app, `${d.page}/web.zip`, inLanguage(lang, { Range: "bytes=100-", "If-Range": whole.headers.etag }));
    const rest = await resume("de");
    expect(rest.status).toBe(206);
    expect((rest.body as Buffer).equals((whole.body as Buffer).subarray(100))).toBe(true);
    expect(rest.headers["content-disposition"]).toBe(whole.headers["content-disposition"]);
    const restarted = await resume("pl");
    expect(restarted.status).toBe(200);
    expect((restarted.body as Buffer).equals(whole.body as Buffer)).toBe(true);
    expect(restarted.headers["content-disposition"]).toBe(attachmentDisposition(webZipName("pl").slice(0, -4)));
  });

  it("follows `?lang=` and, when the studio follows it, the browser's language", async () => {
    const byLink = await getBinary(t.app, `${d.page}/web.zip?lang=ja`).expect(200);
    expect(byLink.headers["content-disposition"]).toBe(attachmentDisposition(webZipName("ja").slice(0, -4)));
    expect(byLink.headers.etag).toMatch(/-ja"$/);
    const admin = await createUser(t.ctx, { role: "admin" });
    await api().put("/api/studio/settings").set(admin.auth).send({ followBrowserLanguage: true }).expect(200);
    try {
      const byBrowser = await getBinary(t.app, `${d.page}/web.zip`, { "Accept-Language": "sv-SE,sv;q=0.9" });
      expect(byBrowser.headers["content-disposition"]).toBe(attachmentDisposition(webZipName("sv").slice(0, -4)));
      expect(byBrowser.headers.etag).toMatch(/-sv"$/);
    } finally {
      await api().put("/api/studio/settings").set(admin.auth).send({ followBrowserLanguage: false }).expect(200);
    }
  });
});

describe("the originals' ZIP", () => {
  it("is named after the project alone: one ETag and no Vary for every language", async () => {
    const [de, fr] = await Promise.all(
      (["de", "fr"] as const).map((lang) => getBinary(t.app, `${d.page}/all.zip`, inLanguage(lang)).expect(200)),
    );
    expect(de.headers["content-disposition"]).toBe(attachmentDisposition("Garden party"));
    expect(fr.headers["content-disposition"]).toBe(de.headers["content-disposition"]);
    expect(fr.headers.etag).toBe(de.headers.etag);
    expect(de.headers.vary).toBeUndefined();
  });
});

describe("a ZIP link's error page", () => {
  const asPage = (url: string, headers: Record<string, string> = {}) =>
    api()
      .get(url)
      .set({ Accept: "text/html,application/xhtml+xml", ...headers });

  it("names its language and what chose it, as the gallery does", async () => {
    const unknown = await asPage(`/d/${"x".repeat(22)}/web.zip`, inLanguage("fr")).expect(404);
    expect(unknown.headers["content-language"]).toBe("fr");
    expect(unknown.headers.vary).toBe("Cookie, Accept-Language");
    expect(unknown.text).toContain('<html lang="fr"');
  });

  it("speaks the project's language when the link is found, as its gallery would", async () => {
    await delivery(d.id, { language: "de", allowDownloads: false });
    try {
      for (const url of [`${d.page}/all.zip`, `${d.page}/web.zip`, d.zipUrl]) {
        const res = await asPage(url).expect(404);
        expect(res.headers["content-language"], url).toBe("de");
        expect(res.headers.vary, url).toBe("Cookie, Accept-Language");
        expect(res.text, url).toContain('<html lang="de"');
        expect(res.text, url).toContain(translator("de").t("gallery.noDownloads"));
      }
      // The visitor's own choice still wins over the project's.
      const chosen = await asPage(`${d.page}/all.zip`, inLanguage("it")).expect(404);
      expect(chosen.headers["content-language"]).toBe("it");
    } finally {
      await delivery(d.id, { language: null, allowDownloads: true });
    }
  });
});
