import request from "supertest";
import { describe, expect, it } from "vitest";
import { SUPPORTED_LANGUAGES } from "../../api/client-languages";
import type { SendingDraft } from "../../api/types";
import { createUser } from "../test/harness";
import { mailParts } from "../test/mail-parts";
import { cookiesOf } from "../delivery/test-fixtures";
import { sendMail, studioFixture, type Studio } from "../sending/test-fixtures";
import { notifyGalleryUpdated } from "../sending/update-notice";
import { LANGUAGE_COOKIE } from "./choose-language";
import { fromAcceptLanguage, matchLanguage } from "./languages";
import { translator } from "./i18n";
import { formatSizeIn } from "./format";
import { escapeHtml } from "../delivery/escape-html";

const fixture = studioFixture();
/** German as its catalogue says it (translators may reword it), and as a page escapes it. */
const de = translator("de").t;
const html = escapeHtml;

/** The studio's settings as an admin changes them in the web app. */
async function studioSettings(s: Studio, change: Record<string, unknown>) {
  const admin = await createUser(s.t.ctx, { role: "admin" });
  return request(s.t.app).put("/api/studio/settings").set(admin.auth).send(change);
}
async function setStudio(s: Studio, change: Record<string, unknown>) {
  expect((await studioSettings(s, change)).status).toBe(200);
}
const projectLanguage = (s: Studio, language: unknown) =>
  request(s.t.app).put(`/api/projects/${s.delivery.id}/delivery`).set(s.staff.auth).send({ language });
/** The language a page was drawn in, as its <html> says. */
const langOf = (res: request.Response) => /<html lang="([^"]+)"/.exec(res.text)?.[1];
const page = (s: Studio, headers: Record<string, string> = {}, path = s.delivery.page) =>
  request(s.t.app).get(path).set(headers);

describe("a language tag as browsers and links write it", () => {
  it("matches ours exactly, by its base language, or not at all", () => {
    expect(
      ["de", "DE-at", "pt", "pt-br", "pt-PT", "no", "nn-NO", "ar-EG", "ja-JP", "zh", ""].map(matchLanguage),
    ).toEqual(["de", "de", "pt-BR", "pt-BR", "pt-BR", "nb", "nb", "ar", "ja", undefined, undefined]);
    expect(fromAcceptLanguage("zh-CN,zh;q=0.9,fr;q=0.5,de;q=0.8")).toBe("de");
    expect(fromAcceptLanguage("fr;q=0, ja")).toBe("ja");
    expect(fromAcceptLanguage("zh, ko")).toBeUndefined();
    expect(fromAcceptLanguage(undefined)).toBeUndefined();
  });
});

describe("a count in a text", () => {
  it("picks the plural form by the number and is written as the language writes numbers", () => {
    expect(de("gallery.photoCount", { count: 1 })).toBe(de("gallery.photoCount_one", { count: 1 }));
    expect(de("gallery.photoCount", { count: 1234 })).toBe(de("gallery.photoCount_other", { count: 1234 }));
    expect(de("gallery.photoCount", { count: 1234 })).toContain("1.234");
    expect(translator("fr").t("gallery.photoCount", { count: 1234 })).toContain("1\u202f234");
    expect(translator("en").t("gallery.photoCount", { count: 1234 })).toBe("1234 photos");
  });
});

describe("the studio's and a project's language", () => {
  it("are English and not following the browser until chosen; unknown values are refused with 400", async () => {
    const s = await fixture.studio();
    const settings = await request(s.t.app).get("/api/studio/settings").set(s.staff.auth).expect(200);
    expect(settings.body).toMatchObject({ language: "en", followBrowserLanguage: false });
    const project = await request(s.t.app).get(`/api/projects/${s.delivery.id}`).set(s.staff.auth).expect(200);
    expect(project.body.delivery.language).toBeNull();

    for (const language of ["xx", "de-DE", "EN", 7, ""]) {
      const studio = await studioSettings(s, { language });
      expect(studio.status, String(language)).toBe(400);
      expect(Object.keys(studio.body.errors)).toEqual(["language"]);
      expect((await projectLanguage(s, language)).status, String(language)).toBe(400);
    }
    expect((await studioSettings(s, { followBrowserLanguage: "yes" })).status).toBe(400);

    const saved = await studioSettings(s, { language: "ja", followBrowserLanguage: true });
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({ language: "ja", followBrowserLanguage: true });
    expect((await projectLanguage(s, "pt-BR")).body.delivery.language).toBe("pt-BR");
    expect((await projectLanguage(s, null)).body.delivery.language).toBeNull();
  });
});

describe("the language a gallery is shown in", () => {
  it("is the project's over the studio's, the visitor's over both, and the browser's only when the studio follows it", async () => {
    const s = await fixture.studio();
    expect(langOf(await page(s))).toBe("en");
    await setStudio(s, { language: "de" });
    const german = await page(s);
    expect(langOf(german)).toBe("de");
    expect(german.text).toContain(html(de("gallery.downloadAll", { size: "" })).split(")")[0]);

    // The project's own language wins over the studio's, from the very next request (nothing kept stale).
    await projectLanguage(s, "en").expect(200);
    const english = await page(s);
    expect(langOf(english)).toBe("en");
    expect(english.text).toContain("Download all (ZIP, ");

    // The browser's language counts only once the studio turns that on, and then over the project's.
    expect(langOf(await page(s, { "Accept-Language": "de-DE,de;q=0.9" }))).toBe("en");
    await setStudio(s, { followBrowserLanguage: true });
    expect(langOf(await page(s, { "Accept-Language": "de-DE,de;q=0.9" }))).toBe("de");
    expect(langOf(await page(s, { "Accept-Language": "zh-CN" }))).toBe("en");

    // The visitor's own choice wins over everything: a cookie...
    const cookie = `${LANGUAGE_COOKIE}=en`;
    expect(langOf(await page(s, { Cookie: cookie, "Accept-Language": "de" }))).toBe("en");
    await setStudio(s, { followBrowserLanguage: false });
    await projectLanguage(s, "ja").expect(200);
    expect(langOf(await page(s, { Cookie: `${LANGUAGE_COOKIE}=de` }))).toBe("de");
    expect(langOf(await page(s, { Cookie: `${LANGUAGE_COOKIE}=xx` }))).toBe("ja");

    // ... which `?lang=` on any link sets, for a year, for every page of the site.
    const chosen = await page(s, {}, `${s.delivery.page}?lang=de`);
    expect(langOf(chosen)).toBe("de");
    const set = (chosen.headers["set-cookie"] as unknown as string[]).find((c) => c.startsWith(`${LANGUAGE_COOKIE}=`));
    expect(set).toMatch(/^pd_lang=de; Path=\/; Expires=[^;]+; HttpOnly; SameSite=Lax$/);
    const expires = new Date(/Expires=([^;]+)/.exec(set!)![1]).getTime();
    expect(expires - Date.now()).toBeGreaterThan(364 * 24 * 3600 * 1000);
    expect(langOf(await page(s, { Cookie: cookiesOf(chosen) }))).toBe("de");
    expect(langOf(await page(s, { Cookie: cookiesOf(chosen) }, `${s.delivery.page}?lang=en`))).toBe("en");
    // An unknown ?lang= sets nothing.
    expect((await page(s, {}, `${s.delivery.page}?lang=xx`)).headers["set-cookie"]).toBeUndefined();
  });

  it("is chosen from a menu of plain links (they work without the script), on the gallery and the message pages too", async () => {
    const s = await fixture.studio();
    const res = await page(s);
    const links = [...res.text.matchAll(/<a href="(\/d\/[^"?]+)\?lang=([^"]+)" hreflang="([^"]+)" lang="([^"]+)"/g)];
    expect(links.map((l) => l[2])).toEqual([...SUPPORTED_LANGUAGES]);
    for (const [, path, lang, hreflang, own] of links)
      expect([path, hreflang, own]).toEqual([s.delivery.page, lang, lang]);
    expect(res.text).toContain('hreflang="en" lang="en" aria-current="true">English</a>');
    expect(res.text).toContain('lang="ar">العربية</a>');
    // The unknown link's page speaks the studio's language and offers the menu for its own address.
    const unknown = await page(s, {}, "/d/AAAAAAAAAAAAAAAAAAAAAAAA?lang=de");
    expect(unknown.status).toBe(404);
    expect(langOf(unknown)).toBe("de");
    expect(unknown.text).toContain(html(de("message.unknownTitle")));
    expect(unknown.text).toContain('href="/d/AAAAAAAAAAAAAAAAAAAAAAAA?lang=fr"');
  });

  it("puts the language in every page's answer and its ETag, and lets nobody keep a page", async () => {
    const s = await fixture.studio();
    await projectLanguage(s, "de").expect(200);
    const res = await page(s);
    expect(res.headers["content-language"]).toBe("de");
    expect(res.headers["cache-control"]).toBe("no-store");
    expect(res.headers.vary).toMatch(/Cookie, Accept-Language/);
    // Express's ETag is the body's hash: another language is another ETag, never a 304 for the wrong one.
    const english = await page(s, { "If-None-Match": String(res.headers.etag) }, `${s.delivery.page}?lang=en`);
    expect(english.status).toBe(200);
    expect(english.headers.etag).not.toBe(res.headers.etag);
    // What the scripts show comes with the page, in its language, as JSON a browser never runs.
    const texts = JSON.parse(/<script type="application\/json" id="pd-texts">([^<]*)<\/script>/.exec(res.text)![1]);
    expect(texts).toMatchObject({ lang: "de", dir: "ltr", viewer: { next: de("viewer.next") } });
    expect(texts.favourites.whoTitle).toBe(de("favourites.whoTitle"));
    // Right to left for Arabic, whatever its catalogue holds yet.
    const arabic = await page(s, {}, `${s.delivery.page}?lang=ar`);
    expect(arabic.text).toContain('<html lang="ar" dir="rtl">');
  });

  it("says a wrong passcode in the gallery's language", async () => {
    const s = await fixture.studio();
    await projectLanguage(s, "de").expect(200);
    await request(s.t.app)
      .put(`/api/projects/${s.delivery.id}/delivery`)
      .set(s.staff.auth)
      .send({ passcode: "open sesame" })
      .expect(200);
    expect((await page(s)).text).toContain(html(de("passcode.title")));
    const wrong = await request(s.t.app).post(`${s.delivery.page}/unlock`).type("form").send({ passcode: "nope" });
    expect(wrong.status).toBe(401);
    expect(wrong.text).toContain(html(de("passcode.wrong")));
    expect(langOf(wrong)).toBe("de");
  });
});

describe("a client's mail", () => {
  it("goes out in the project's language, else the studio's (the link, the update notice); its unsubscribe page opens in the same", async () => {
    const s = await fixture.studio();
    await setStudio(s, { language: "de" });
    const draft = (await request(s.t.app).get(`/api/projects/${s.delivery.id}/sending`).set(s.staff.auth))
      .body as SendingDraft;
    expect(draft.subject).toBe(de("mail.subject", { studio: "Lumen Studio", project: "Lima Wedding" }));
    await sendMail(s.t, s.staff, s.delivery.id, { contactIds: [s.ana] }).expect(200);
    const mail = mailParts(fixture.mails[0].raw);
    expect(mail.text).toContain(de("mail.buttonLead"));
    expect(mail.text).toContain(
      de("mail.photos", {
        count: 3,
        size: formatSizeIn(
          "de",
          s.delivery.photos.reduce((n, p) => n + p.length, 0),
        ),
      }),
    );
    const unsubscribe = /<[^>]+(\/unsubscribe\/[^>]+)>/.exec(mail.header("List-Unsubscribe")[0])![1];
    expect(unsubscribe).toMatch(/\?lang=de$/);
    const form = await request(s.t.app).get(unsubscribe).expect(200);
    expect(form.text).toContain(html(de("unsubscribe.question", { studio: "Lumen Studio", email: "ana@lima.test" })));

    // The notice that the gallery was updated speaks the same language.
    fixture.mails.length = 0;
    expect(await notifyGalleryUpdated(s.t.ctx, s.delivery.id)).toBe(1);
    const notice = mailParts(fixture.mails[0].raw);
    expect(notice.header("Subject")[0]).toBe(de("mail.updateSubject", { project: "Lima Wedding" }));
    expect(notice.text).toContain(de("mail.updateMessage", { studio: "Lumen Studio", project: "Lima Wedding" }));

    await projectLanguage(s, "en").expect(200);
    fixture.mails.length = 0;
    await sendMail(s.t, s.staff, s.delivery.id, { contactIds: [s.luis] }).expect(200);
    expect(mailParts(fixture.mails[0].raw).text).toContain("View and download the photos:");
  });

  it("in Japanese arrives readable over real SMTP: UTF-8 subject and body", async () => {
    const s = await fixture.studio();
    await projectLanguage(s, "ja").expect(200);
    const draft = (await request(s.t.app).get(`/api/projects/${s.delivery.id}/sending`).set(s.staff.auth))
      .body as SendingDraft;
    await sendMail(s.t, s.staff, s.delivery.id, {
      contactIds: [s.ana],
      subject: draft.subject,
      message: draft.message,
    }).expect(200);
    const { raw } = fixture.mails[0];
    const mail = mailParts(raw);
    const { t } = translator("ja");
    const japanese = /[\u3040-\u30ff\u4e00-\u9fff]/;
    expect(raw).toMatch(/charset=utf-8/i);
    expect(mail.header("Subject")[0]).toBe(t("mail.subject", { studio: "Lumen Studio", project: "Lima Wedding" }));
    expect(mail.header("Subject")[0]).toMatch(japanese);
    expect(mail.text).toContain(t("mail.buttonLead"));
    expect(mail.text).toMatch(japanese);
    expect(mail.html).toContain('<html lang="ja" dir="ltr">');
    expect(mail.html).toContain(t("mail.button"));
  });
});
