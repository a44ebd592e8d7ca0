import path from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import { adminToken, create } from "./api";
import { launchBrowser } from "./browser";
import { removeThroughApi } from "./fixtures/cleanup";
import { addPhotosBySql } from "./fixtures/photos-by-sql";
import { publishThroughApi } from "./fixtures/publish";

const PHOTOS = 10_000;
const DESKTOP = { width: 1440, height: 900 };
const PHONE = { width: 390, height: 844 };
const nameOf = (n: number) => `RUN_${String(n).padStart(5, "0")}.jpg`;

/** Scrolls to the end of the grid again and again, each time once the script has drawn more; answers the number drawn. */
async function scrollToTheEnd(page: Page): Promise<number> {
  for (;;) {
    const drawn = await page.evaluate(() => {
      window.scrollTo(0, document.body.scrollHeight);
      return document.querySelector(".grid:not(.fav-grid)")!.children.length;
    });
    if (drawn >= PHOTOS) return drawn;
    await page.waitForFunction((n) => document.querySelector(".grid:not(.fav-grid)")!.children.length > n, drawn, {
      timeout: 20_000,
    });
  }
}

async function thumbnailShown(page: Page, n: number) {
  const img = page.locator(`.grid img[src="t/${n}"]`);
  await img.scrollIntoViewIfNeeded();
  await expect.poll(() => img.evaluate((i) => (i as HTMLImageElement).naturalWidth)).toBeGreaterThan(0);
  return img;
}

describe("the delivery page of a 10,000-photo project", () => {
  let browser: Browser;
  let projectId: number;
  let pageUrl: string;

  beforeAll(async () => {
    const token = await adminToken();
    projectId = (await create<{ id: number }>(token, "projects", { name: "City Marathon — Finish Line" })).id;
    const dataDir = inject("dataDir");
    await addPhotosBySql(
      path.join(dataDir, "photodrop.sqlite3"),
      path.join(dataDir, "uploads"),
      projectId,
      PHOTOS,
      nameOf,
    );
    pageUrl = (await publishThroughApi(token, projectId, 120_000)).deliveryUrl!;
    browser = await launchBrowser();
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    if (projectId) await removeThroughApi(await adminToken(), "projects", projectId);
  });

  for (const [device, viewport] of [
    ["desktop", DESKTOP],
    ["390 px phone", PHONE],
  ] as const) {
    it(`answers a small first page and reaches the last photo by scrolling and in the viewer, on a ${device}`, async () => {
      const context = await browser.newContext({
        baseURL: inject("baseUrl"),
        viewport,
        isMobile: viewport.width < 500,
        hasTouch: viewport.width < 500,
      });
      context.setDefaultTimeout(20_000);
      const page = await context.newPage();
      try {
        const first = await page.goto(pageUrl);
        expect(first!.status()).toBe(200);
        expect((await first!.body()).length).toBeLessThan(100 * 1024);
        await page.getByText("10000 photos").waitFor();
        const downloadAll = page.getByRole("link", { name: /^Download all \(ZIP, [\d.]+ (KB|MB)\)$/ });
        expect(await downloadAll.getAttribute("href")).toBe("all.zip");

        // The viewer reaches the last photo from the first, before the grid has drawn it.
        await page.locator(".grid a").first().click();
        const viewer = page.getByRole("dialog", { name: "Photo viewer" });
        await viewer.getByText(`1 / ${PHOTOS}`).waitFor();
        await page.keyboard.press("ArrowLeft");
        await viewer.getByText(`${PHOTOS} / ${PHOTOS}`).waitFor();
        await viewer.getByText(nameOf(PHOTOS)).waitFor();
        await expect
          .poll(() => viewer.locator("img").evaluate((img) => (img as HTMLImageElement).naturalWidth))
          .toBeGreaterThan(0);
        await page.keyboard.press("Escape");
        await viewer.waitFor({ state: "hidden" });

        // Scrolling draws the grid part by part to its last photo, which opens in the viewer.
        expect(await scrollToTheEnd(page)).toBe(PHOTOS);
        const last = await thumbnailShown(page, PHOTOS);
        expect(await last.getAttribute("alt")).toBe(nameOf(PHOTOS));
        await last.click();
        await viewer.getByText(`${PHOTOS} / ${PHOTOS}`).waitFor();
        await viewer.getByText(nameOf(PHOTOS)).waitFor();
        await page.keyboard.press("ArrowRight");
        await viewer.getByText(`1 / ${PHOTOS}`).waitFor();
        await viewer.getByText(nameOf(1)).waitFor();
      } finally {
        await context.close();
      }
    }, 240_000);
  }
});
