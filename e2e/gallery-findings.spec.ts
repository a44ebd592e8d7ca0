import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, BrowserContext, Page } from "playwright-core";
import yauzl from "yauzl";
import { create, putJson, signUpAccount } from "./api";
import { launchBrowser, screenshot, signInAsAdmin } from "./browser";
import { startFreshServer, type FreshServer } from "./fresh-server";
import { imageFile } from "./fixtures/images";
import { publishThroughApi } from "./fixtures/publish";
import { uploadThroughApi } from "./fixtures/upload";

/**
 * Issue 47's gallery findings, each as the studio or its client meets it: a view-only gallery
 * still shared and badged, web-size files named `-web`, a calm phone viewer, the selection button
 * only once something is chosen, Escape after 'Use as cover', and the client's link (PUBLIC_URL)
 * on the Delivery card. The studio's clients reach it as `studio.lan`; staff use 127.0.0.1.
 */
const ADMIN = { email: "ida@nordlicht.test", password: "ida-password-1" };
const LAN = "studio.lan";
const STUDIO = "Nordlicht Studio";
const DESKTOP = { width: 1440, height: 900 };
const PHONE = { width: 390, height: 844 };

let server: FreshServer;
let browser: Browser;
let lanUrl: string;
let token: string;

beforeAll(async () => {
  server = await startFreshServer((port) => ({ PUBLIC_URL: `http://${LAN}:${port}`, STUDIO_NAME: STUDIO }));
  lanUrl = server.baseUrl.replace("127.0.0.1", LAN);
  browser = await launchBrowser([`--host-resolver-rules=MAP ${LAN} 127.0.0.1`]);
  token = await signUpAccount(ADMIN.email, ADMIN.password, "Ida Admin", server.baseUrl);
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

/** A published project of `photos` (IMG_0101.jpg, ...) with these delivery settings: its id and the client's page. */
async function publishedGallery(
  name: string,
  photos: number,
  delivery: object = {},
): Promise<{ id: number; deliveryUrl: string }> {
  const project = await create<{ id: number }>(token, "projects", { name }, server.baseUrl);
  for (let i = 1; i <= photos; i++) {
    const shade = (40 + i * 20).toString(16).padStart(2, "0");
    const file = await imageFile(`IMG_0${100 + i}.jpg`, "jpeg", `#${shade}8a${shade}`, 480);
    await uploadThroughApi(token, project.id, file, server.baseUrl);
  }
  expect((await putJson(token, `projects/${project.id}/delivery`, delivery, server.baseUrl)).status).toBe(200);
  const { deliveryUrl } = await publishThroughApi(token, project.id, 60_000, server.baseUrl);
  return { id: project.id, deliveryUrl: deliveryUrl! };
}

async function staffPage(): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ baseURL: server.baseUrl, viewport: DESKTOP, acceptDownloads: true });
  context.setDefaultTimeout(20_000);
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  const page = await context.newPage();
  await signInAsAdmin(page, ADMIN.email, ADMIN.password);
  return { context, page };
}

async function clientPage(viewport: {
  width: number;
  height: number;
}): Promise<{ context: BrowserContext; page: Page }> {
  const phone = viewport.width < 500;
  const context = await browser.newContext({ viewport, isMobile: phone, hasTouch: phone, acceptDownloads: true });
  context.setDefaultTimeout(20_000);
  return { context, page: await context.newPage() };
}

const deliveryCard = (page: Page) =>
  page.locator(".mantine-Card-root").filter({ has: page.getByRole("heading", { name: "Delivery", exact: true }) });

/** The names of a ZIP's entries, in order. */
function zipEntryNames(file: string): Promise<string[]> {
  return new Promise((resolve, reject) =>
    yauzl.open(file, { lazyEntries: true }, (err, zip) => {
      if (err) return reject(err);
      const names: string[] = [];
      zip.on("entry", (entry: yauzl.Entry) => {
        names.push(entry.fileName);
        zip.readEntry();
      });
      zip.on("end", () => resolve(names));
      zip.on("error", reject);
      zip.readEntry();
    }),
  );
}

/** How many lines an element's text takes. */
const linesOf = (page: Page, selector: string) =>
  page.locator(selector).evaluate((node) => {
    const range = document.createRange();
    range.selectNodeContents(node);
    return new Set(Array.from(range.getClientRects(), (r) => Math.round(r.top))).size;
  });

describe("issue 47's gallery findings", () => {
  it("shares a view-only gallery from the toolbar, badges it, and tells its client no downloads are offered", async () => {
    const { id, deliveryUrl } = await publishedGallery("Proofs — Berg Family", 2, { allowDownloads: false });
    const clientLink = `${lanUrl}${deliveryUrl}`;
    const { context: studio, page: staff } = await staffPage();
    await staff.goto(`/projects/${id}`);
    await staff.getByText("Attachments (2)").waitFor();
    const card = deliveryCard(staff);
    await card.getByText("View-only", { exact: true }).waitFor();
    // The link the client gets, under PUBLIC_URL as in the mails, not the browser's 127.0.0.1.
    expect(await card.getByLabel("Delivery page link").textContent()).toBe(clientLink);
    expect(await staff.getByRole("link", { name: "Download ZIP" }).count()).toBe(0);
    expect(await staff.getByRole("link", { name: "Open delivery page" }).getAttribute("href")).toBe(clientLink);
    await staff.getByRole("button", { name: "Copy page link" }).click();
    await staff.getByRole("button", { name: "Copied!" }).waitFor();
    expect(await staff.evaluate(() => navigator.clipboard.readText())).toBe(clientLink);
    await screenshot(staff, "view-only-toolbar");

    const { context: phone, page: client } = await clientPage(PHONE);
    await client.goto(clientLink);
    await client.getByRole("heading", { name: "Proofs — Berg Family" }).waitFor();
    await client.getByText("The studio has not offered downloads for this gallery.").waitFor();
    await screenshot(client, "view-only-gallery-phone");
    // A ZIP link opened in the browser: the studio's page, not raw JSON.
    const zip = await client.goto(`${clientLink}/all.zip`);
    expect(zip?.status()).toBe(404);
    await client.getByRole("heading", { name: "Downloads are not offered" }).waitFor();
    await client.getByText(STUDIO).first().waitFor();
    expect(await client.content()).not.toContain("statusCode");
    await phone.close();
    await studio.close();
  });

  it("names web-size files IMG_0103-web.jpg and tells the web size apart on the activity timeline", async () => {
    const { id, deliveryUrl } = await publishedGallery("Web sizes — Moor Wedding", 3, { offerWebSize: true });
    const { context: desktop, page: client } = await clientPage(DESKTOP);
    await client.goto(`${lanUrl}${deliveryUrl}`);
    await client.getByText("3 photos").waitFor();
    const [webZip] = await Promise.all([
      client.waitForEvent("download"),
      client.getByRole("link", { name: /^Download web size \(ZIP/ }).click(),
    ]);
    expect(await zipEntryNames((await webZip.path())!)).toEqual([
      "IMG_0101-web.jpg",
      "IMG_0102-web.jpg",
      "IMG_0103-web.jpg",
    ]);
    await client.locator(".grid a").nth(2).click();
    const viewer = client.getByRole("dialog", { name: "Photo viewer" });
    await viewer.getByText("IMG_0103.jpg").waitFor();
    const [photo] = await Promise.all([
      client.waitForEvent("download"),
      viewer.getByRole("link", { name: "Download web size" }).click(),
    ]);
    expect(photo.suggestedFilename()).toBe("IMG_0103-web.jpg");
    const [original] = await Promise.all([
      client.waitForEvent("download"),
      viewer.getByRole("link", { name: "Download", exact: true }).click(),
    ]);
    expect(original.suggestedFilename()).toBe("IMG_0103.jpg");
    await desktop.close();

    const { context: studio, page: staff } = await staffPage();
    await staff.goto(`/projects/${id}`);
    const activity = staff
      .locator(".mantine-Card-root")
      .filter({ has: staff.getByRole("heading", { name: "Delivery activity" }) });
    await activity.getByText("Web-size ZIP downloaded").waitFor();
    await activity.getByText("Photo downloaded (web size): IMG_0103-web.jpg").waitFor();
    await activity.getByText("Photo downloaded (original): IMG_0103.jpg").waitFor();
    await activity.scrollIntoViewIfNeeded();
    await screenshot(staff, "activity-sizes");
    await studio.close();
  });

  it("keeps the phone viewer calm, and offers the selection only once something is chosen", async () => {
    const { deliveryUrl } = await publishedGallery("Phone — Lund Portraits", 10, { offerWebSize: true });
    const { context: phone, page: client } = await clientPage(PHONE);
    await client.goto(`${lanUrl}${deliveryUrl}`);
    await client.getByText("10 photos").waitFor();
    const bar = client.getByRole("region", { name: "Favourites" });
    await bar.getByRole("button", { name: "Favourites (0)" }).waitFor();
    // Nothing chosen yet: no 'Send my selection' to press.
    expect(await bar.getByRole("button", { name: `Send my selection to ${STUDIO}` }).count()).toBe(0);

    await client.locator(".grid a").first().click();
    const viewer = client.getByRole("dialog", { name: "Photo viewer" });
    await viewer.getByText("1 / 10").waitFor();
    // Opaque: the page does not show through.
    expect(await viewer.evaluate((node) => getComputedStyle(node).backgroundColor)).toBe("rgb(0, 0, 0)");
    // The file name is shown whole, the counter and the web size's download each on one line, side by side.
    const name = viewer.locator(".viewer-name");
    expect(await name.textContent()).toBe("IMG_0101.jpg");
    expect(await name.evaluate((node) => node.scrollWidth <= node.clientWidth && node.clientWidth > 0)).toBe(true);
    expect(await linesOf(client, ".viewer-position")).toBe(1);
    expect(await linesOf(client, ".viewer-download:last-of-type")).toBe(1);
    const counter = (await viewer.locator(".viewer-position").boundingBox())!;
    const web = (await viewer.getByRole("link", { name: "Download web size" }).boundingBox())!;
    expect(Math.abs(counter.y + counter.height / 2 - (web.y + web.height / 2))).toBeLessThan(8);
    expect(web.x + web.width).toBeLessThanOrEqual(PHONE.width);
    // Close sits beside the name, above: two rows in all.
    const close = (await viewer.getByRole("button", { name: "Close" }).boundingBox())!;
    expect(close.y + close.height).toBeLessThanOrEqual(counter.y);

    await viewer.getByRole("button", { name: "Favourite", exact: true }).click();
    const who = client.getByRole("dialog", { name: "Who is choosing?" });
    await who.getByLabel("Your name").fill("Maja Lund");
    await who.getByLabel("Your e-mail").fill("maja@lund.test");
    await who.getByRole("button", { name: "Continue" }).click();
    await who.waitFor({ state: "hidden" });
    await viewer.getByLabel("Add a comment").fill("For the wall");
    await viewer.getByRole("button", { name: "Save comment" }).click();
    await viewer.getByText("Comment saved").waitFor();
    // One notice: the viewer's, not the page's behind it as well.
    expect(await client.getByText("Comment saved").count()).toBe(1);
    await screenshot(client, "phone-viewer-calm", { fullPage: false });
    await client.keyboard.press("Escape");
    await viewer.waitFor({ state: "hidden" });

    await bar.getByRole("button", { name: "Favourites (1)" }).waitFor();
    await bar.getByRole("button", { name: `Send my selection to ${STUDIO}` }).waitFor();
    await phone.close();
  });

  it("closes the lightbox with Escape after 'Use as cover', the focus kept in it and its toolbar uncovered", async () => {
    const { id } = await publishedGallery("Cover — Ek Family", 2);
    const { context: studio, page: staff } = await staffPage();
    await staff.goto(`/projects/${id}`);
    await staff.getByRole("button", { name: "IMG_0102.jpg", exact: true }).click();
    const lightbox = staff.getByRole("dialog", { name: "IMG_0102.jpg" });
    await lightbox.getByRole("button", { name: "Use as cover" }).click();
    await lightbox.getByRole("button", { name: "Cover photo" }).waitFor();
    expect(await staff.evaluate(() => document.activeElement?.closest('[role="dialog"]') !== null)).toBe(true);
    // No notice lies over the lightbox's buttons. 'Cover photo' shows once the project is read again
    // after the change was answered, so a notice of that answer is on the page by now; each is read
    // once it has come to rest (its entry transition over) or gone.
    const toolbar = (await lightbox.getByRole("button", { name: "Cover photo" }).boundingBox())!;
    for (const notice of await staff.locator(".mantine-Notification-root").all()) {
      await staff.waitForFunction(
        (el) => !el.isConnected || (getComputedStyle(el).opacity === "1" && el.getAnimations().length === 0),
        await notice.elementHandle(),
      );
      const box = await notice.boundingBox();
      if (!box) continue;
      const overlaps =
        box.x < toolbar.x + toolbar.width &&
        toolbar.x < box.x + box.width &&
        box.y < toolbar.y + toolbar.height &&
        toolbar.y < box.y + box.height;
      expect(overlaps).toBe(false);
    }
    await staff.keyboard.press("Escape");
    await lightbox.waitFor({ state: "hidden" });
    await studio.close();
  });
});
