import fs from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { inject } from "vitest";
import sharp from "sharp";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { adminToken, create, putJson } from "./api";
import { launchBrowser, screenshot, signInAsAdmin } from "./browser";
import { removeThroughApi } from "./fixtures/cleanup";
import { loadedThumbnails } from "./fixtures/gallery";
import { galleryPhoto, type FilePayload } from "./fixtures/images";
import { uploadThroughApi } from "./fixtures/upload";
import { publishThroughApi } from "./fixtures/publish";

const DESKTOP = { width: 1440, height: 900 };
const PHONE = { width: 390, height: 844 };
const PASSCODE = "garden-party-24";

const PHOTOS: Array<[string, string, string]> = [
  ["golden-hour-001.jpg", "#f6d365", "#fda085"],
  ["golden-hour-002.jpg", "#a1c4fd", "#c2e9fb"],
  ["first-dance.jpg", "#fbc2eb", "#a6c1ee"],
  ["the-rings.jpg", "#84fab0", "#8fd3f4"],
  ["toast & cheers.jpg", "#ffecd2", "#fcb69f"],
  ["sparklers.jpg", "#30cfd0", "#330867"],
];

async function clientContext(
  browser: Browser,
  viewport: { width: number; height: number },
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({
    baseURL: inject("baseUrl"),
    viewport,
    acceptDownloads: true,
    isMobile: viewport.width < 500,
    hasTouch: viewport.width < 500,
  });
  context.setDefaultTimeout(15_000);
  return { context, page: await context.newPage() };
}

const figure = (page: Page, label: string) => page.getByRole("group", { name: label });

describe("the client's delivery page", () => {
  let browser: Browser;
  let projectId: number;
  const files: FilePayload[] = [];

  beforeAll(async () => {
    const token = await adminToken();
    const project = await create<{ id: number }>(token, "projects", {
      name: "Ana & Luís — Golden Hour",
      description: "Wedding, 14 June",
      // The journey pages through the viewer in the order the photos were uploaded.
      photoOrder: "uploaded",
    });
    projectId = project.id;
    for (const [name, from, to] of PHOTOS) {
      const file = await galleryPhoto(name, from, to);
      files.push(file);
      await uploadThroughApi(token, projectId, file);
    }
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.close();
    if (projectId) await removeThroughApi(await adminToken(), "projects", projectId);
  });

  it("publishes, shows the page on a phone and a desktop, pages through the viewer, downloads, locks with a passcode and regenerates", async () => {
    // The studio publishes and keeps the project page open: the figures must move on it without a reload.
    const studio = await browser.newContext({ baseURL: inject("baseUrl"), viewport: DESKTOP });
    studio.setDefaultTimeout(20_000);
    await studio.grantPermissions(["clipboard-read", "clipboard-write"]);
    const staff = await studio.newPage();
    await signInAsAdmin(staff);
    await staff.goto(`/projects/${projectId}`);
    await staff.getByText("Attachments (6)").waitFor();
    const card = staff
      .locator(".mantine-Card-root")
      .filter({ has: staff.getByRole("heading", { name: "Delivery", exact: true }) });
    await card.getByText("Publish the project to give your client a delivery page.").waitFor();
    await staff.getByRole("button", { name: "Publish Project", exact: true }).click();
    await staff.getByRole("link", { name: "Open delivery page" }).waitFor();
    await staff.getByRole("button", { name: "Copy page link" }).click();
    await staff.getByRole("button", { name: "Copied!" }).first().waitFor();
    const pageUrl = await staff.evaluate(() => navigator.clipboard.readText());
    expect(pageUrl).toMatch(new RegExp(`^${inject("baseUrl")}/d/[A-Za-z0-9_-]{22,}$`));
    expect(await staff.getByRole("link", { name: "Open delivery page" }).getAttribute("href")).toBe(pageUrl);
    const zipHref = await staff.getByRole("link", { name: "Download ZIP" }).getAttribute("href");
    await expect.poll(() => figure(staff, "Views").textContent()).toContain("0");

    // The client, on a phone, in a browser that has never seen the app.
    const phone = await clientContext(browser, PHONE);
    await phone.page.goto(pageUrl);
    await phone.page.getByRole("heading", { name: "Ana & Luís — Golden Hour" }).waitFor();
    await phone.page.getByText("6 photos").waitFor();
    expect(await loadedThumbnails(phone.page)).toBe(6);
    const adminBundle = await phone.page.evaluate(
      () => performance.getEntriesByType("resource").filter((e) => e.name.includes("/assets/index")).length,
    );
    expect(adminBundle).toBe(0);
    await screenshot(phone.page, "delivery-phone");
    await phone.page.locator(".grid a").nth(2).click();
    const phoneViewer = phone.page.getByRole("dialog", { name: "Photo viewer" });
    await phoneViewer.getByText("first-dance.jpg").waitFor();
    await expect
      .poll(() => phoneViewer.locator("img").evaluate((img) => (img as HTMLImageElement).naturalWidth))
      .toBeGreaterThan(0);
    // The viewer shows the photo's preview, a JPEG of its own, not the original.
    expect(await phoneViewer.locator("img").getAttribute("src")).toBe("v/3");
    const shown = await phone.page.evaluate(async () => {
      const res = await fetch((document.querySelector(".viewer img") as HTMLImageElement).currentSrc);
      return { type: res.headers.get("content-type"), etag: res.headers.get("etag") };
    });
    expect(shown).toMatchObject({ type: "image/jpeg", etag: expect.stringMatching(/^"[0-9a-f]{64}-preview"$/) });
    await screenshot(phone.page, "delivery-phone-viewer");
    await phone.page.keyboard.press("Escape");
    await phoneViewer.waitFor({ state: "hidden" });

    // The same page on a desktop: the viewer pages with the keyboard and downloads one photo.
    const desktop = await clientContext(browser, DESKTOP);
    await desktop.page.goto(pageUrl);
    expect(await loadedThumbnails(desktop.page)).toBe(6);
    await screenshot(desktop.page, "delivery-desktop");
    await desktop.page.locator(".grid a").first().click();
    const viewer = desktop.page.getByRole("dialog", { name: "Photo viewer" });
    await viewer.getByText("golden-hour-001.jpg").waitFor();
    await desktop.page.keyboard.press("ArrowRight");
    await viewer.getByText("golden-hour-002.jpg").waitFor();
    await desktop.page.keyboard.press("ArrowRight");
    await viewer.getByText("first-dance.jpg").waitFor();
    await desktop.page.keyboard.press("ArrowLeft");
    await viewer.getByText("golden-hour-002.jpg").waitFor();
    await desktop.page.keyboard.press("ArrowLeft");
    await desktop.page.keyboard.press("ArrowLeft");
    await viewer.getByText("sparklers.jpg").waitFor();
    await viewer.getByText("6 / 6").waitFor();
    await expect
      .poll(() => viewer.locator("img").evaluate((img) => (img as HTMLImageElement).naturalWidth))
      .toBeGreaterThan(0);
    expect(await viewer.locator("img").getAttribute("src")).toBe("v/6");
    await screenshot(desktop.page, "delivery-desktop-viewer");
    // Focus stays inside the open viewer: Tab and Shift+Tab go round its own controls.
    const focusInViewer = () =>
      desktop.page.evaluate(() => document.activeElement?.closest('[role="dialog"]') !== null);
    for (let i = 0; i < 6; i++) {
      await desktop.page.keyboard.press("Tab");
      await expect(focusInViewer()).resolves.toBe(true);
    }
    for (let i = 0; i < 6; i++) {
      await desktop.page.keyboard.press("Shift+Tab");
      await expect(focusInViewer()).resolves.toBe(true);
    }
    const [photoDownload] = await Promise.all([
      desktop.page.waitForEvent("download"),
      viewer.getByRole("link", { name: "Download" }).click(),
    ]);
    expect(photoDownload.suggestedFilename()).toBe("sparklers.jpg");
    expect(fs.readFileSync((await photoDownload.path())!).equals(files[5].buffer)).toBe(true);
    await desktop.page.keyboard.press("Escape");
    await viewer.waitFor({ state: "hidden" });

    const downloadAll = desktop.page.getByRole("link", { name: /^Download all \(ZIP, [\d.]+ (KB|MB)\)$/ });
    const [zipDownload] = await Promise.all([desktop.page.waitForEvent("download"), downloadAll.click()]);
    const zipBytes = fs.readFileSync((await zipDownload.path())!);
    const published = Buffer.from(await (await fetch(new URL(zipHref!, inject("baseUrl")))).arrayBuffer());
    expect(zipBytes.equals(published)).toBe(true);
    expect(zipDownload.suggestedFilename()).toBe("Ana & Luís — Golden Hour.zip");

    // The studio's page caught up by itself: two page views, and the ZIP fetched by the test above plus the client's.
    await expect.poll(() => figure(staff, "Views").textContent(), { timeout: 15_000 }).toContain("2");
    await expect.poll(() => figure(staff, "Downloads").textContent(), { timeout: 15_000 }).toContain("2");
    await expect.poll(() => figure(staff, "Last download").textContent()).not.toContain("Never");
    await card.scrollIntoViewIfNeeded();
    await screenshot(staff, "delivery-card");

    // A passcode: the page becomes a form, and the right passcode opens it.
    await card.getByLabel("Passcode").fill(PASSCODE);
    await card.getByRole("button", { name: "Save delivery settings" }).click();
    await card.getByText("A passcode is set. Type a new one to replace it.").waitFor();
    await phone.page.goto(pageUrl);
    await phone.page.getByRole("heading", { name: "Enter the passcode" }).waitFor();
    expect(await phone.page.locator(".grid img").count()).toBe(0);
    expect(await phone.page.content()).not.toContain("Golden Hour");
    await screenshot(phone.page, "delivery-phone-passcode");
    await phone.page.getByLabel("Passcode").fill("not-it");
    await phone.page.getByRole("button", { name: "View photos" }).click();
    await phone.page.getByText("Wrong passcode").waitFor();
    await phone.page.getByLabel("Passcode").fill(PASSCODE);
    await phone.page.getByRole("button", { name: "View photos" }).click();
    await phone.page.getByRole("heading", { name: "Ana & Luís — Golden Hour" }).waitFor();
    expect(await loadedThumbnails(phone.page)).toBe(6);

    // A new link: the old page dies at once, the new one asks for the passcode again.
    await card.getByRole("button", { name: "Regenerate link" }).click();
    const confirm = staff.getByRole("dialog", { name: "Regenerate link" });
    await confirm.getByRole("button", { name: "Regenerate" }).click();
    await confirm.waitFor({ state: "hidden" });
    await expect
      .poll(() => staff.getByRole("link", { name: "Open delivery page" }).getAttribute("href"))
      .not.toBe(pageUrl);
    const newUrl = (await staff.getByRole("link", { name: "Open delivery page" }).getAttribute("href"))!;
    const old = await phone.page.goto(pageUrl);
    expect(old?.status()).toBe(404);
    await phone.page.getByRole("heading", { name: "This delivery link does not exist" }).waitFor();
    await phone.page.goto(newUrl);
    await phone.page.getByRole("heading", { name: "Enter the passcode" }).waitFor();

    await phone.context.close();
    await desktop.context.close();
    await studio.close();
  });

  it("offers the web size beside the originals when the card says so, and nothing to download once view-only", async () => {
    const token = await adminToken();
    const proofs = await create<{ id: number }>(token, "projects", { name: "Proofs and prints" });
    const studio = await browser.newContext({ baseURL: inject("baseUrl"), viewport: DESKTOP });
    studio.setDefaultTimeout(20_000);
    const client = await clientContext(browser, DESKTOP);
    try {
      for (const [name, from, to] of PHOTOS.slice(0, 2))
        await uploadThroughApi(token, proofs.id, await galleryPhoto(name, from, to));
      const staff = await studio.newPage();
      await signInAsAdmin(staff);
      await staff.goto(`/projects/${proofs.id}`);
      const card = staff
        .locator(".mantine-Card-root")
        .filter({ has: staff.getByRole("heading", { name: "Delivery", exact: true }) });
      const save = async () => {
        await card.getByRole("button", { name: "Save delivery settings" }).click();
        await staff.getByText("Delivery settings saved").waitFor();
      };
      // Mantine draws the switch over a zero-sized checkbox: a person clicks its label.
      const toggle = async (label: string, checked: boolean) => {
        await card.getByText(label, { exact: true }).click();
        await expect.poll(() => card.getByRole("checkbox", { name: label }).isChecked()).toBe(checked);
      };
      await toggle("Offer web-size downloads", true);
      await save();
      const { deliveryUrl } = await publishThroughApi(token, proofs.id);

      const scriptErrors: string[] = [];
      client.page.on("pageerror", (err) => scriptErrors.push(err.message));
      await client.page.goto(deliveryUrl!);
      await client.page.getByRole("link", { name: /^Download all \(ZIP, [\d.]+ (KB|MB)\)$/ }).waitFor();
      const webZip = client.page.getByRole("link", { name: /^Download web size \(ZIP, [\d.]+ (KB|MB)\)$/ });
      const [zip] = await Promise.all([client.page.waitForEvent("download"), webZip.click()]);
      expect(zip.suggestedFilename()).toBe("Proofs and prints (web size).zip");
      await client.page.locator(".grid a").first().click();
      const viewer = client.page.getByRole("dialog", { name: "Photo viewer" });
      await viewer.getByRole("link", { name: "Download", exact: true }).waitFor();
      const [one] = await Promise.all([
        client.page.waitForEvent("download"),
        viewer.getByRole("link", { name: "Download web size" }).click(),
      ]);
      expect(one.suggestedFilename()).toBe("golden-hour-001-web.jpg");
      const meta = await sharp(fs.readFileSync((await one.path())!)).metadata();
      expect([meta.format, meta.width]).toEqual(["jpeg", 1200]);
      await client.page.keyboard.press("Escape");

      // View-only: the card's switch, then the same page shows the photos and offers nothing to download.
      await staff.reload();
      await toggle("Allow downloads", false);
      await save();
      await client.page.reload();
      await client.page.getByText("2 photos").waitFor();
      expect(await loadedThumbnails(client.page)).toBe(2);
      expect(await client.page.getByRole("link", { name: /Download/ }).count()).toBe(0);
      await client.page.locator(".grid a").first().click();
      await expect
        .poll(() => viewer.locator("img").evaluate((img) => (img as HTMLImageElement).naturalWidth))
        .toBeGreaterThan(0);
      expect(await viewer.getByRole("link").count()).toBe(0);
      // Favourites still work there: the viewer's heart stands where the downloads would.
      await viewer.getByRole("button", { name: "Favourite" }).waitFor();
      expect(scriptErrors).toEqual([]);
      await screenshot(client.page, "delivery-view-only-viewer");
      const refused = await client.page.request.get(`${deliveryUrl}/all.zip`);
      expect(refused.status()).toBe(404);
    } finally {
      await client.context.close();
      await studio.close();
      await removeThroughApi(token, "projects", proofs.id);
    }
  });

  it("shows the studio's name, accent and contact from the Studio screen, the chosen cover, and each photo's shape", async () => {
    const token = await adminToken();
    const shaped = await create<{ id: number }>(token, "projects", { name: "Shapes of the day" });
    await uploadThroughApi(token, shaped.id, await galleryPhoto("wide.jpg", "#f6d365", "#fda085", { height: 600 }));
    await uploadThroughApi(
      token,
      shaped.id,
      await galleryPhoto("tall.jpg", "#a1c4fd", "#c2e9fb", { width: 600, height: 900 }),
    );
    const { deliveryUrl } = await publishThroughApi(token, shaped.id);

    const studio = await browser.newContext({ baseURL: inject("baseUrl"), viewport: DESKTOP });
    studio.setDefaultTimeout(20_000);
    const admin = await studio.newPage();
    try {
      await signInAsAdmin(admin);
      await admin.getByRole("link", { name: "Studio" }).click();
      await admin.getByRole("heading", { name: "Studio" }).waitFor();
      await admin.getByLabel("Studio name").fill("Golden Hour Studio");
      await admin.getByLabel("Accent colour", { exact: true }).fill("#ffd43b");
      await admin.getByLabel("Contact e-mail").fill("hello@goldenhour.test");
      await admin.getByLabel("Web site").fill("not a site");
      await admin.getByRole("button", { name: "Save studio settings" }).click();
      await admin.getByText("Web site must be an http:// or https:// address").waitFor();
      await admin.getByLabel("Web site").fill("https://goldenhour.test");
      await admin.getByRole("button", { name: "Save studio settings" }).click();
      await admin.getByText("Studio settings saved").waitFor();
      const logo = await sharp({ create: { width: 300, height: 100, channels: 3, background: "#5c3d2e" } })
        .png()
        .toBuffer();
      await admin
        .locator('input[type="file"]')
        .setInputFiles({ name: "logo.png", mimeType: "image/png", buffer: logo });
      await admin.getByRole("img", { name: "Studio logo" }).waitFor();
      await screenshot(admin, "studio-settings");

      // The default cover is the first photo in the project's order (tall.jpg, first by file name:
      // neither has a capture time); wide.jpg becomes the cover, from the project page's viewer.
      await admin.goto(`/projects/${shaped.id}`);
      await admin.getByRole("button", { name: "tall.jpg" }).click();
      await admin.getByRole("button", { name: "Cover photo" }).waitFor();
      await admin.keyboard.press("Escape");
      await admin.getByRole("button", { name: "wide.jpg" }).click();
      await admin.getByRole("button", { name: "Use as cover" }).click();
      await admin.getByRole("button", { name: "Cover photo" }).waitFor();

      for (const viewport of [PHONE, DESKTOP]) {
        const client = await clientContext(browser, viewport);
        await client.page.goto(deliveryUrl!);
        await client.page.getByRole("heading", { name: "Shapes of the day" }).waitFor();
        await client.page.locator(".cover").getByText("Golden Hour Studio").waitFor();
        await expect
          .poll(() => client.page.locator(".cover .logo").evaluate((img) => (img as HTMLImageElement).naturalWidth))
          .toBe(300);
        // wide.jpg, chosen: second in file-name order, not tall.jpg, the default cover.
        expect(await client.page.locator(".cover > img").getAttribute("src")).toBe("v/2");
        const button = client.page.getByRole("link", { name: /^Download all/ });
        expect(await button.evaluate((a) => [getComputedStyle(a).backgroundColor, getComputedStyle(a).color])).toEqual([
          "rgb(255, 212, 59)",
          "rgb(0, 0, 0)",
        ]);
        await client.page.getByRole("link", { name: "hello@goldenhour.test" }).waitFor();
        expect(await loadedThumbnails(client.page)).toBe(2);
        const shapes = await client.page
          .locator(".grid a")
          .evaluateAll((links) => links.map((a) => a.getBoundingClientRect().width / a.getBoundingClientRect().height));
        // In file-name order: tall.jpg (600 × 900), then wide.jpg (1200 × 600).
        expect(shapes[0]).toBeCloseTo(2 / 3, 1);
        expect(shapes[1]).toBeCloseTo(2, 1);
        await screenshot(client.page, `delivery-branded-${viewport.width}`);
        await client.context.close();
      }
    } finally {
      await studio.close();
      // The other journeys share this server: its studio goes back to the defaults.
      await fetch(`${inject("baseUrl")}/api/studio/logo`, {
        method: "DELETE",
        headers: { Authorization: `Bearer ${token}` },
      });
      await putJson(token, "studio/settings", {
        name: "Photodrop",
        accentColor: "#1971c2",
        contactEmail: null,
        contactWebsite: null,
      });
      await removeThroughApi(token, "projects", shaped.id);
    }
  });
});
