import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { Browser, Locator, Page } from "playwright-core";
import type { FavouriteVisitor } from "../api/favourites";
import type { StudioSettings } from "../api/types";
import { translator } from "../server/i18n/i18n";
import { SUPPORTED_LANGUAGES, type Language } from "../server/i18n/languages";
import { englishIn } from "../server/i18n/test-helpers";
import { adminToken, create, getJson, putJson } from "./api";
import { expectNoSeriousAxeViolations } from "./axe";
import { docsScreenshot, launchBrowser, screenshot, SIZES } from "./browser";
import { removeThroughApi } from "./fixtures/cleanup";
import { elementsWiderThanScreen, loadedThumbnails, swipe } from "./fixtures/gallery";
import { galleryPhoto } from "./fixtures/images";
import { publishThroughApi } from "./fixtures/publish";
import { uploadThroughApi } from "./fixtures/upload";

/**
 * Issue 50: a client's gallery in German and in Arabic (right to left), on a phone and a
 * desktop: the project's language set by the studio, `?lang=` switching it, the viewer paged
 * with the keyboard and a swipe (both mirrored in Arabic), favourites chosen, the 'Who is
 * choosing?' question answered and the selection sent to the studio. On every screen: no English
 * sentence, nothing past the window's edge, no serious axe-core finding.
 */
const PHOTOS: Array<[string, string, string]> = [
  ["IMG_0001.jpg", "#f6d365", "#fda085"],
  ["IMG_0002.jpg", "#a1c4fd", "#c2e9fb"],
  ["IMG_0003.jpg", "#fbc2eb", "#a6c1ee"],
  ["IMG_0004.jpg", "#84fab0", "#8fd3f4"],
];

const LANGUAGES: Array<{
  lang: Language;
  dir: "ltr" | "rtl";
  project: string;
  visitors: Record<(typeof SIZES)[number]["name"], { name: string; email: string }>;
}> = [
  {
    lang: "de",
    dir: "ltr",
    // German's long compounds are what a phone's narrow column must take.
    project: "Hochzeitsreportage Großmann–Schwarzenbach",
    visitors: {
      phone: { name: "Jürgen Großmann", email: "juergen@grossmann.test" },
      desktop: { name: "Annegret Schwarzenbach", email: "annegret@schwarzenbach.test" },
    },
  },
  {
    lang: "ar",
    dir: "rtl",
    project: "زفاف ليلى وسامي",
    visitors: {
      phone: { name: "ليلى حداد", email: "layla@haddad.test" },
      desktop: { name: "سامي الخوري", email: "sami@khoury.test" },
    },
  },
];

/** Everything a person reads or hears on the page: its text, title and every accessible name. */
const pageWords = (page: Page) =>
  page.evaluate(() =>
    [
      document.title,
      document.body.innerText,
      ...Array.from(document.querySelectorAll("[aria-label], [alt], [title], [placeholder]"), (node) =>
        ["aria-label", "alt", "title", "placeholder"].map((name) => node.getAttribute(name) ?? "").join("\n"),
      ),
    ].join("\n"),
  );

/** The checks every screen of the journey passes: its language, no English, nothing past the edge. */
async function expectInLanguage(page: Page, lang: Language, dir: string, screen: string): Promise<void> {
  expect(await page.evaluate(() => [document.documentElement.lang, document.documentElement.dir])).toEqual([lang, dir]);
  expect(englishIn(lang, await pageWords(page)), `${screen}: English sentences`).toEqual([]);
  expect(await elementsWiderThanScreen(page), `${screen}: past the window's edge`).toEqual([]);
}

const isFocused = (target: Locator) => target.evaluate((node) => node === document.activeElement);

/**
 * The viewer's bar as it is laid out: how many rows its controls take (a control starting below
 * the bottom of the row so far begins another), its height, and the controls whose label spills
 * out of them or past the screen's edge.
 */
const viewerBarLayout = (page: Page) =>
  page.locator(".viewer-bar").evaluate((bar) => {
    const controls = Array.from(
      bar.querySelectorAll<HTMLElement>(
        ".viewer-name, .viewer-position, .viewer-heart, .viewer-download, .viewer-close",
      ),
    ).filter((node) => node.offsetParent !== null);
    const boxes = controls.map((node) => node.getBoundingClientRect()).sort((a, b) => a.top - b.top);
    let rows = 0;
    let bottom = -Infinity;
    for (const box of boxes) {
      if (box.top >= bottom - 1) {
        rows += 1;
        bottom = box.bottom;
      } else bottom = Math.max(bottom, box.bottom);
    }
    const spilling = controls
      .filter((node) => !node.classList.contains("viewer-name"))
      .filter((node) => {
        const box = node.getBoundingClientRect();
        return node.scrollWidth > node.clientWidth + 1 || box.left < 0 || box.right > window.innerWidth + 1;
      })
      .map((node) => node.textContent ?? node.className);
    return { rows, height: Math.round(bar.getBoundingClientRect().height), spilling };
  });

describe.each(LANGUAGES)("a gallery in $lang", ({ lang, dir, project, visitors }) => {
  const { t } = translator(lang);
  const rtl = dir === "rtl";
  // The arrow key towards the end of the line goes on; a swipe towards its start brings the next photo.
  const [nextKey, previousKey] = rtl ? ["ArrowLeft", "ArrowRight"] : ["ArrowRight", "ArrowLeft"];
  const swipeToNext = rtl ? 160 : -160;
  let browser: Browser;
  let token: string;
  let projectId: number;
  let pageUrl: string;
  let studio: string;

  beforeAll(async () => {
    token = await adminToken();
    const settings = await getJson<StudioSettings>(token, "studio/settings");
    // The project's language must be what shows the page, not the studio's.
    expect(settings.language).not.toBe(lang);
    studio = settings.name;
    const made = await create<{ id: number }>(token, "projects", { name: project, photoOrder: "uploaded" });
    projectId = made.id;
    for (const [name, from, to] of PHOTOS)
      await uploadThroughApi(token, projectId, await galleryPhoto(name, from, to, { width: 960, height: 640 }));
    const delivery = await putJson(token, `projects/${projectId}/delivery`, { language: lang, offerWebSize: true });
    expect(delivery.status).toBe(200);
    expect(((await delivery.json()) as { delivery: { language: string } }).delivery.language).toBe(lang);
    const { deliveryUrl } = await publishThroughApi(token, projectId, 60_000);
    pageUrl = new URL(deliveryUrl!, inject("baseUrl")).toString();
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.close();
    if (projectId) await removeThroughApi(await adminToken(), "projects", projectId);
  });

  it.each(SIZES)("on a $name: gallery, viewer, favourites and sending, in the language", async (size) => {
    const context = await browser.newContext({
      baseURL: inject("baseUrl"),
      viewport: size.viewport,
      isMobile: size.touch,
      hasTouch: size.touch,
      // An English browser: the project's language wins (the studio does not follow the browser's).
      locale: "en-US",
      // axe-core is injected into the page, which its Content-Security-Policy would refuse.
      bypassCSP: true,
      acceptDownloads: true,
    });
    context.setDefaultTimeout(15_000);
    const page = await context.newPage();
    const screen = (what: string) => `${lang} ${size.name}: ${what}`;

    // The gallery, in the project's language.
    await page.goto(pageUrl);
    await page.getByRole("heading", { name: project }).waitFor();
    await page.getByText(t("gallery.photoCount", { count: PHOTOS.length }), { exact: false }).waitFor();
    expect(await loadedThumbnails(page)).toBe(PHOTOS.length);
    await expectInLanguage(page, lang, dir, screen("the gallery"));
    await expectNoSeriousAxeViolations(page, screen("the gallery"));

    // The web size's ZIP is named in the language too.
    const [webZip] = await Promise.all([page.waitForEvent("download"), page.locator('a[href="web.zip"]').click()]);
    expect(webZip.suggestedFilename()).toBe(`${t("gallery.webSizeZipName", { project })}.zip`);
    await webZip.cancel();

    // `?lang=` switches it (and is remembered); `?lang=` again switches it back.
    await page.goto(`${pageUrl}?lang=en`);
    await page.getByText(`${PHOTOS.length} photos`, { exact: false }).waitFor();
    // The check of every screen below sees English where there is some.
    expect(englishIn(lang, await pageWords(page))).toContain("Download web size (ZIP,");
    expect(await page.evaluate(() => [document.documentElement.lang, document.documentElement.dir])).toEqual([
      "en",
      "ltr",
    ]);
    await page.goto(`${pageUrl}?lang=${lang}`);
    await page.getByText(t("gallery.photoCount", { count: PHOTOS.length }), { exact: false }).waitFor();
    expect((await context.cookies()).find((c) => c.name === "pd_lang")?.value).toBe(lang);
    await page.goto(pageUrl);
    expect(await page.evaluate(() => document.documentElement.lang)).toBe(lang);
    expect(await loadedThumbnails(page)).toBe(PHOTOS.length);

    // The visitor's menu lists every language, on the screen.
    const menu = page.locator("details.languages");
    await menu.locator("summary").click();
    await expect.poll(() => menu.getByRole("link").count()).toBe(13);
    expect(await menu.getByRole("link", { name: "English" }).getAttribute("href")).toMatch(/\?lang=en$/);
    await expectInLanguage(page, lang, dir, screen("the language menu"));
    await menu.locator("summary").click();

    // The viewer, opened from the first photo, paged with the keyboard (mirrored right to left).
    const first = page.locator(".grid a").first();
    if (size.touch) await first.tap();
    else {
      await first.focus();
      await page.keyboard.press("Enter");
    }
    const viewer = page.getByRole("dialog", { name: t("viewer.label") });
    const shown = viewer.locator(".viewer-name");
    await expect.poll(() => shown.textContent()).toBe("IMG_0001.jpg");
    await page.keyboard.press(nextKey);
    await expect.poll(() => shown.textContent()).toBe("IMG_0002.jpg");
    await page.keyboard.press(previousKey);
    await expect.poll(() => shown.textContent()).toBe("IMG_0001.jpg");
    await page.keyboard.press(previousKey);
    await expect.poll(() => shown.textContent()).toBe("IMG_0004.jpg");
    await page.keyboard.press(nextKey);
    await expect.poll(() => shown.textContent()).toBe("IMG_0001.jpg");
    if (!size.touch) {
      // 'Next' sits at the end of the line: on the right, or on the left in Arabic (a phone swipes instead).
      const next = viewer.getByRole("button", { name: t("viewer.next") });
      const previous = viewer.getByRole("button", { name: t("viewer.previous") });
      const [nextBox, previousBox] = [(await next.boundingBox())!, (await previous.boundingBox())!];
      expect(nextBox.x > previousBox.x).toBe(!rtl);
      await next.click();
      await expect.poll(() => shown.textContent()).toBe("IMG_0002.jpg");
    } else {
      await page.keyboard.press(nextKey);
      await expect.poll(() => shown.textContent()).toBe("IMG_0002.jpg");
      // A swipe towards the start of the line brings the next photo, the other way the previous.
      const stage = viewer.locator(".viewer-stage");
      await swipe(page, stage, swipeToNext);
      await expect.poll(() => shown.textContent()).toBe("IMG_0003.jpg");
      await swipe(page, stage, -swipeToNext);
      await expect.poll(() => shown.textContent()).toBe("IMG_0002.jpg");
    }
    await expect
      .poll(() => viewer.locator("img").evaluate((img) => (img as HTMLImageElement).naturalWidth))
      .toBeGreaterThan(0);
    await viewer.getByRole("link", { name: t("viewer.downloadWebSize") }).waitFor();
    // Its bar: one row on a desktop, at most two on a phone (the name and Close, then the rest).
    const layout = await viewerBarLayout(page);
    expect(layout, screen("the viewer's bar")).toMatchObject({ rows: size.touch ? 2 : 1, spilling: [] });
    await expectInLanguage(page, lang, dir, screen("the viewer"));
    await expectNoSeriousAxeViolations(page, screen("the viewer"));
    await screenshot(page, `gallery-languages-${lang}-${size.name}-viewer`, { fullPage: false });
    // Escape closes it and gives the focus back to the photo it was opened from.
    await page.keyboard.press("Escape");
    await viewer.waitFor({ state: "hidden" });
    await expect.poll(() => isFocused(first)).toBe(true);

    // Favourites: the first heart asks who is choosing, in the language.
    const heart = page.getByRole("button", { name: t("favourites.heart", { name: "IMG_0002.jpg" }) });
    await heart.click();
    const who = page.getByRole("dialog", { name: t("favourites.whoTitle") });
    await who.getByText(t("favourites.whoText", { studio })).waitFor();
    await expect.poll(() => who.evaluate((node) => getComputedStyle(node).opacity)).toBe("1");
    await expectInLanguage(page, lang, dir, screen("the 'Who is choosing?' dialog"));
    await expectNoSeriousAxeViolations(page, screen("the 'Who is choosing?' dialog"));
    await screenshot(page, `gallery-languages-${lang}-${size.name}-dialog`, { fullPage: false });
    const visitor = visitors[size.name];
    await who.getByLabel(t("favourites.name")).fill(visitor.name);
    await who.getByLabel(t("favourites.email")).fill(visitor.email);
    await who.getByRole("button", { name: t("favourites.continue") }).click();
    await who.waitFor({ state: "hidden" });
    await expect.poll(() => heart.getAttribute("aria-pressed")).toBe("true");
    await page.getByRole("button", { name: t("favourites.heart", { name: "IMG_0004.jpg" }) }).click();

    // The bar counts them (in the language's digits) and sends the selection.
    const two = await page.evaluate((l) => new Intl.NumberFormat(l).format(2), lang);
    const bar = page.getByRole("region", { name: t("favourites.region") });
    await bar.getByRole("button", { name: t("favourites.toggle", { count: 2 }).replace("2", two) }).waitFor();
    await bar.getByRole("button", { name: t("favourites.send", { studio }) }).click();
    await bar.getByRole("button", { name: t("favourites.sent") }).waitFor();
    await bar.getByText(t("favourites.sentStatus", { studio })).waitFor();
    await expectInLanguage(page, lang, dir, screen("the selection sent"));
    await expectNoSeriousAxeViolations(page, screen("the selection sent"));
    await page.evaluate(() => window.scrollTo(0, 0));
    if (size.name === "phone" || lang === "ar") await docsScreenshot(page, `gallery-${lang}-${size.name}`);
    else await screenshot(page, `gallery-${lang}-${size.name}`);

    // The studio has it: the visitor, two photos, sent.
    const received = await getJson<FavouriteVisitor[]>(token, `projects/${projectId}/favourites`);
    expect(received.find((v) => v.email === visitor.email)).toMatchObject({
      name: visitor.name,
      count: 2,
      sent: true,
      submittedAt: expect.any(String),
    });
    await context.close();
  });
});

/**
 * Every language's longest labels in the viewer's bar on a 390 px phone: the counter, a heart and
 * both downloads must share one row under the name and Close (German's 'Webgröße herunterladen'
 * once took a third row of its own).
 */
describe("the viewer's bar on a 390 px phone", () => {
  let browser: Browser;
  let token: string;
  let projectId: number;
  let pageUrl: string;

  beforeAll(async () => {
    token = await adminToken();
    const made = await create<{ id: number }>(token, "projects", { name: "Bar — every language" });
    projectId = made.id;
    for (const [name, from, to] of PHOTOS.slice(0, 2))
      await uploadThroughApi(token, projectId, await galleryPhoto(name, from, to, { width: 960, height: 640 }));
    expect((await putJson(token, `projects/${projectId}/delivery`, { offerWebSize: true })).status).toBe(200);
    const { deliveryUrl } = await publishThroughApi(token, projectId, 60_000);
    pageUrl = new URL(deliveryUrl!, inject("baseUrl")).toString();
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.close();
    if (projectId) await removeThroughApi(await adminToken(), "projects", projectId);
  });

  it("takes two rows in every language, no label spilling out of its button or off the screen", async () => {
    const phone = SIZES.find((s) => s.name === "phone")!;
    const context = await browser.newContext({
      baseURL: inject("baseUrl"),
      viewport: phone.viewport,
      isMobile: true,
      hasTouch: true,
      locale: "en-US",
    });
    context.setDefaultTimeout(15_000);
    const page = await context.newPage();
    const layouts: Record<string, unknown> = {};
    for (const lang of SUPPORTED_LANGUAGES) {
      const { t } = translator(lang);
      await page.goto(`${pageUrl}?lang=${lang}`);
      await page.locator(".grid a").first().tap();
      const viewer = page.getByRole("dialog", { name: t("viewer.label") });
      await viewer.getByRole("link", { name: t("viewer.downloadWebSize") }).waitFor();
      await viewer.getByRole("button", { name: t("favourites.heartInViewer") }).waitFor();
      await expect.poll(() => viewer.locator(".viewer-position").textContent()).not.toBe("");
      layouts[lang] = await viewerBarLayout(page);
      if (lang === "de") await screenshot(page, "gallery-languages-viewer-bar-de-phone", { fullPage: false });
    }
    for (const lang of SUPPORTED_LANGUAGES)
      expect(layouts[lang], `${lang}: ${JSON.stringify(layouts[lang])}`).toMatchObject({ rows: 2, spilling: [] });
    // Two rows of buttons, a long label's two lines at most: the photo keeps the screen.
    for (const lang of SUPPORTED_LANGUAGES)
      expect((layouts[lang] as { height: number }).height, lang).toBeLessThanOrEqual(120);
    await context.close();
  });
});
