import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { inject } from "vitest";
import sharp from "sharp";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { adminToken, create } from "./api";
import { docsScreenshot, launchBrowser, screenshot, signInAsAdmin } from "./browser";
import { expectNoSeriousAxeViolations } from "./axe";
import { removeThroughApi } from "./fixtures/cleanup";
import { loadedThumbnails } from "./fixtures/gallery";
import { galleryPhoto, type FilePayload } from "./fixtures/images";
import { uploadThroughApi } from "./fixtures/upload";
import { publishThroughApi } from "./fixtures/publish";

/**
 * A client marks favourites on the delivery page, on a phone and on a desktop, gives a name and
 * e-mail, writes a comment and sends the selection; the studio's project page, open all along,
 * shows each visitor's picks and comment without a reload and copies Lightroom's filter text.
 */
const DESKTOP = { width: 1440, height: 900 };
const PHONE = { width: 390, height: 844 };
const LIMIT = 5;

const PHOTOS: Array<[string, string, string]> = [
  ["IMG_0001.jpg", "#f6d365", "#fda085"],
  ["IMG_0002.jpg", "#a1c4fd", "#c2e9fb"],
  ["IMG_0003.jpg", "#fbc2eb", "#a6c1ee"],
  ["IMG_0004.jpg", "#84fab0", "#8fd3f4"],
  ["IMG_0005.jpg", "#ffecd2", "#fcb69f"],
  ["IMG_0006.jpg", "#30cfd0", "#330867"],
  ["IMG_0007.jpg", "#e0c3fc", "#8ec5fc"],
  ["IMG_0008.jpg", "#f093fb", "#f5576c"],
];

const VISITORS = [
  { size: "phone", viewport: PHONE, name: "Ana Lima", email: "ana@lima.test", picks: [1, 3, 4, 6, 8] },
  { size: "desktop", viewport: DESKTOP, name: "Luís Lima", email: "luis@lima.test", picks: [2, 3, 5, 7, 8] },
] as const;

async function clientContext(browser: Browser, viewport: { width: number; height: number }) {
  const context = await browser.newContext({
    baseURL: inject("baseUrl"),
    viewport,
    isMobile: viewport.width < 500,
    hasTouch: viewport.width < 500,
    // axe-core is injected into the page, which its Content-Security-Policy would refuse.
    bypassCSP: true,
  });
  context.setDefaultTimeout(15_000);
  return { context, page: await context.newPage() };
}

/** The bytes the viewer's image really loaded, fetched again by the page as it would (same cookies). */
async function viewerImageBytes(
  page: Page,
): Promise<{ src: string; type: string | null; etag: string | null; bytes: Buffer }> {
  const got = await page.evaluate(async () => {
    const img = document.querySelector(".viewer img") as HTMLImageElement;
    const res = await fetch(img.currentSrc);
    const bytes = new Uint8Array(await res.arrayBuffer());
    let binary = "";
    for (const b of bytes) binary += String.fromCharCode(b);
    return {
      src: img.getAttribute("src")!,
      type: res.headers.get("content-type"),
      etag: res.headers.get("etag"),
      base64: btoa(binary),
    };
  });
  return { src: got.src, type: got.type, etag: got.etag, bytes: Buffer.from(got.base64, "base64") };
}

describe("favourites on the delivery page", () => {
  let browser: Browser;
  let projectId: number;
  let token: string;
  const files: FilePayload[] = [];

  beforeAll(async () => {
    token = await adminToken();
    const project = await create<{ id: number }>(token, "projects", { name: "Lima Wedding — Favourites" });
    projectId = project.id;
    for (const [name, from, to] of PHOTOS) {
      const file = await galleryPhoto(name, from, to, { width: 1600, height: 1067, sunX: 0.3, quality: 85 });
      files.push(file);
      await uploadThroughApi(token, projectId, file);
    }
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.close();
    if (projectId) await removeThroughApi(await adminToken(), "projects", projectId);
  });

  it("lets a client choose, comment on and send favourites, which the studio's page shows live and copies for Lightroom", async () => {
    // The studio sets the limit in the 'Delivery' card, publishes, and keeps the project page open.
    const studio: BrowserContext = await browser.newContext({ baseURL: inject("baseUrl"), viewport: DESKTOP });
    studio.setDefaultTimeout(20_000);
    await studio.grantPermissions(["clipboard-read", "clipboard-write"]);
    const staff = await studio.newPage();
    await signInAsAdmin(staff);
    await staff.goto(`/projects/${projectId}`);
    await staff.getByText(`Attachments (${PHOTOS.length})`).waitFor();
    const delivery = staff
      .locator(".mantine-Card-root")
      .filter({ has: staff.getByRole("heading", { name: "Delivery", exact: true }) });
    await delivery.getByLabel("Favourites limit").fill(String(LIMIT));
    await delivery.getByRole("button", { name: "Save delivery settings" }).click();
    await staff.getByText("Delivery settings saved").waitFor();
    const { deliveryUrl } = await publishThroughApi(token, projectId);
    const pageUrl = new URL(deliveryUrl!, inject("baseUrl")).toString();
    const card = staff
      .locator(".mantine-Card-root")
      .filter({ has: staff.getByRole("heading", { name: "Favourites", exact: true }) });
    await card.getByText(`Each visitor of the delivery page can choose up to ${LIMIT} photos.`).waitFor();
    await card.getByText("No favourites yet.", { exact: false }).waitFor();

    for (const visitor of VISITORS) {
      const client = await clientContext(browser, visitor.viewport);
      const page = client.page;
      await page.goto(pageUrl);
      await page.getByRole("heading", { name: "Lima Wedding — Favourites" }).waitFor();
      expect(await loadedThumbnails(page)).toBe(PHOTOS.length);
      const bar = page.getByRole("region", { name: "Favourites" });
      await bar.getByRole("button", { name: "Favourites (0)" }).waitFor();
      await bar.getByText(`Choose up to ${LIMIT} photos`).waitFor();

      // Views a photo: what loads is its preview (a JPEG of its own, smaller than the original), not the original.
      const [first, ...rest] = visitor.picks;
      await page
        .locator(".grid a")
        .nth(first - 1)
        .click();
      const viewer = page.getByRole("dialog", { name: "Photo viewer" });
      await viewer.getByText(`IMG_000${first}.jpg`).waitFor();
      await expect
        .poll(() => viewer.locator("img").evaluate((img) => (img as HTMLImageElement).naturalWidth))
        .toBeGreaterThan(0);
      const shown = await viewerImageBytes(page);
      expect(shown.src).toBe(`v/${first}`);
      expect(shown.type).toBe("image/jpeg");
      expect(shown.etag).toMatch(/^"[0-9a-f]{64}-preview"$/);
      expect(shown.bytes.equals(files[first - 1].buffer)).toBe(false);
      const meta = await sharp(shown.bytes).metadata();
      expect(meta.format).toBe("jpeg");
      expect(Math.max(meta.width!, meta.height!)).toBeLessThanOrEqual(2048);
      expect(await viewer.locator("img").evaluate((img) => (img as HTMLImageElement).naturalWidth)).toBe(meta.width);

      // The first heart asks once who is choosing.
      await viewer.getByRole("button", { name: "Favourite", exact: true }).click();
      const who = page.getByRole("dialog", { name: "Who is choosing?" });
      await who.getByLabel("Your name").fill(visitor.name);
      await who.getByLabel("Your e-mail").fill("not-an-address");
      await who.getByRole("button", { name: "Continue" }).click();
      await who.getByText("Invalid email format").waitFor();
      await who.getByLabel("Your e-mail").fill(visitor.email);
      await who.getByRole("button", { name: "Continue" }).click();
      await who.waitFor({ state: "hidden" });
      await expect
        .poll(() => viewer.getByRole("button", { name: "Favourite", exact: true }).getAttribute("aria-pressed"))
        .toBe("true");
      await viewer.getByLabel("Add a comment").fill(`${visitor.name.split(" ")[0]}: this one for the album`);
      await viewer.getByRole("button", { name: "Save comment" }).click();
      await viewer.getByText("Comment saved").waitFor();
      await screenshot(page, `favourites-${visitor.size}-viewer`);
      await page.keyboard.press("Escape");
      await viewer.waitFor({ state: "hidden" });

      for (const n of rest) {
        const heart = page.getByRole("button", { name: `Favourite IMG_000${n}.jpg` }).first();
        await heart.click();
        await expect.poll(() => heart.getAttribute("aria-pressed")).toBe("true");
      }
      await bar.getByRole("button", { name: `Favourites (${LIMIT})` }).waitFor();
      // The limit stops a sixth with a clear message.
      const extra = [1, 2, 3, 4, 5, 6, 7, 8].find((n) => !(visitor.picks as readonly number[]).includes(n))!;
      await page.getByRole("button", { name: `Favourite IMG_000${extra}.jpg` }).click();
      await bar.getByText(`You can choose up to ${LIMIT} photos. Remove one to choose another.`).waitFor();
      expect(
        await page.getByRole("button", { name: `Favourite IMG_000${extra}.jpg` }).getAttribute("aria-pressed"),
      ).toBe("false");

      // 'Favourites (5)' shows only them, with the comment.
      await bar.getByRole("button", { name: `Favourites (${LIMIT})` }).click();
      const favGrid = page.locator(".fav-grid");
      await expect.poll(() => favGrid.locator("img").count()).toBe(LIMIT);
      expect(await favGrid.locator("img").evaluateAll((imgs) => imgs.map((i) => i.getAttribute("alt")))).toEqual(
        visitor.picks.map((n) => `IMG_000${n}.jpg`),
      );
      await favGrid.getByText("this one for the album", { exact: false }).waitFor();
      expect(await page.locator(".grid:not(.fav-grid)").isHidden()).toBe(true);
      // Opened from there, the viewer goes through the picks only, round to the first again.
      await favGrid.locator("a").first().click();
      const seen: string[] = [];
      for (let i = 0; i <= LIMIT; i++) {
        await expect.poll(() => viewer.locator(".viewer-position").textContent()).toBe(`${(i % LIMIT) + 1} / ${LIMIT}`);
        seen.push((await viewer.locator(".viewer-name").textContent()) ?? "");
        await page.keyboard.press("ArrowRight");
      }
      expect(seen).toEqual([...visitor.picks, visitor.picks[0]].map((n) => `IMG_000${n}.jpg`));
      await page.keyboard.press("Escape");
      await viewer.waitFor({ state: "hidden" });
      await bar.getByRole("button", { name: "Send my selection to Photodrop" }).click();
      await bar.getByRole("button", { name: "Selection sent" }).waitFor();
      await bar.getByText("Selection sent to Photodrop. You can still change it and send it again.").waitFor();
      await expectNoSeriousAxeViolations(page, `favourites (${visitor.size})`);
      await page.evaluate(() => window.scrollTo(0, 0));
      if (visitor.size === "phone") await docsScreenshot(page, "favourites-phone");
      else await screenshot(page, "favourites-desktop");

      // The studio's page caught up without a reload: the visitor, their five picks and the comment.
      // Named by what it shows (axe's label-content-name-mismatch): the name, e-mail, count and state.
      const row = card
        .getByRole("button")
        .filter({ hasText: visitor.name })
        .filter({ hasText: `${LIMIT} photos` });
      await row.waitFor();
      await row.click();
      const picks = card.locator(`[aria-label="Picks of ${visitor.name}"]`);
      await picks.getByRole("heading", { name: `${visitor.name}'s picks (${LIMIT})` }).waitFor();
      await expect.poll(() => picks.locator("figure img").count()).toBe(LIMIT);
      await picks.getByText(`${visitor.name.split(" ")[0]}: this one for the album`, { exact: false }).waitFor();
      await row.getByText("Sent", { exact: false }).waitFor();
      await picks.getByRole("button", { name: "Copy Lightroom filter" }).click();
      await picks.getByRole("button", { name: "Copied!" }).waitFor();
      expect(await staff.evaluate(() => navigator.clipboard.readText())).toBe(
        visitor.picks.map((n) => `IMG_000${n}`).join(" OR "),
      );
      await picks.getByRole("button", { name: "Copy file names" }).click();
      await expect
        .poll(() => staff.evaluate(() => navigator.clipboard.readText()))
        .toBe(visitor.picks.map((n) => `IMG_000${n}.jpg`).join("\n"));
      await client.context.close();
    }

    await card.scrollIntoViewIfNeeded();
    await card.getByRole("button", { name: "Copy Lightroom filter" }).waitFor();
    await card.getByRole("button", { name: "Copy file names" }).waitFor();
    for (const dir of ["e2e/screenshots", "docs/screenshots"])
      await card.screenshot({ path: `${dir}/favourites-card.png` });
    await screenshot(staff, "favourites-studio");
    await studio.close();
  });
});
