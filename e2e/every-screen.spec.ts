import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { Browser, BrowserContext, Locator, Page } from "playwright-core";
import { adminToken, create, putJson, signUpAccount } from "./api";
import { expectNoSeriousAxeViolations } from "./axe";
import {
  docsScreenshot,
  launchBrowser,
  screenshot,
  signIn,
  signInAsAdmin,
  SIZES,
  expectNoSidewaysScroll,
} from "./browser";
import { removeThroughApi, type Named } from "./fixtures/cleanup";
import { imageFile } from "./fixtures/images";
import { uploadThroughApi } from "./fixtures/upload";
import { publishThroughApi, type PublishedProject } from "./fixtures/publish";

// Uploaded in file-name order, so the grid shows them in this order whatever the project's photo order.
const PHOTOS = ["east-light.jpg", "north-light.jpg", "south-light.jpg"];

/** One level-one heading, nothing wider than the screen, and axe-core content. */
async function checkScreen(page: Page, screen: string): Promise<void> {
  await expect(page.locator("h1").count(), `${screen}: level-one headings`).resolves.toBe(1);
  await expectNoSidewaysScroll(page, screen);
  await expectNoSeriousAxeViolations(page, screen);
}

/** On the screen without scrolling sideways: a control a person can reach. */
async function expectWithinScreen(control: Locator, viewportWidth: number): Promise<void> {
  // A list that a live change reads again draws its rows anew: measure the control once it is shown.
  await control.waitFor();
  const box = await control.boundingBox();
  expect(box).not.toBeNull();
  expect(box!.x).toBeGreaterThanOrEqual(0);
  expect(box!.x + box!.width).toBeLessThanOrEqual(viewportWidth);
}

describe.each(SIZES)("every screen on a $name", ({ name, viewport, touch }) => {
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let client: Named;
  let project: PublishedProject;
  const waiting = { email: `waiting-${name}-${Date.now()}@photodrop.test`, password: "waiting-password-1" };

  beforeAll(async () => {
    const token = await adminToken();
    client = await create<Named>(token, "clients", { name: `Screens Client ${name}` });
    await create(token, "contacts", { name: `Sam ${name}`, clientId: client.id });
    const arranged = await create<Named>(token, "projects", { name: `Screens Project ${name}`, clientId: client.id });
    for (const [i, photo] of PHOTOS.entries())
      await uploadThroughApi(token, arranged.id, await imageFile(photo, "jpeg", ["#2f6f8f", "#8f2f4f", "#4f8f2f"][i]));
    await signUpAccount(waiting.email, waiting.password, `Wren ${name}`);
    browser = await launchBrowser();
    context = await browser.newContext({
      baseURL: inject("baseUrl"),
      viewport,
      isMobile: touch,
      hasTouch: touch,
      bypassCSP: true,
    });
    context.setDefaultTimeout(20_000);
    page = await context.newPage();
    await signInAsAdmin(page);
    project = { ...arranged, publishStatus: "draft", deliveryUrl: null };
  });

  afterAll(async () => {
    await browser?.close();
    const token = await adminToken();
    if (project) await removeThroughApi(token, "projects", project.id);
    if (client) await removeThroughApi(token, "clients", client.id);
  });

  it("signs in and asks for access on accessible screens", async () => {
    const visitor = await browser.newPage({ baseURL: inject("baseUrl"), viewport, bypassCSP: true });
    await visitor.goto("/login");
    await visitor.getByRole("button", { name: "Sign in", exact: true }).waitFor();
    await checkScreen(visitor, `login (${name})`);
    await signIn(visitor, waiting.email, waiting.password);
    await visitor.getByRole("heading", { name: "Request Access" }).waitFor();
    await checkScreen(visitor, `request access (${name})`);
    await visitor.close();

    await page.goto("/");
    await page.getByRole("heading", { name: "Dashboard Overview" }).waitFor();
    await page.getByText("Storage Usage").waitFor();
    await checkScreen(page, `dashboard (${name})`);
  });

  it("skips past the navigation from the first Tab, with the focus shown", async () => {
    await page.goto("/clients/all");
    await page.getByRole("heading", { name: "All Clients" }).waitFor();
    await page.keyboard.press("Tab");
    const skip = page.getByRole("link", { name: "Skip to main content" });
    await expect(skip.evaluate((link) => link === document.activeElement)).resolves.toBe(true);
    await expectWithinScreen(skip, viewport.width);
    await expect(skip.evaluate((link) => getComputedStyle(link).outlineStyle)).resolves.not.toBe("none");
    await page.keyboard.press("Enter");
    await expect(page.evaluate(() => document.activeElement?.tagName)).resolves.toBe("MAIN");
    // The next Tab lands in the page, past the header and the navigation.
    await page.keyboard.press("Tab");
    const inMain = await page.evaluate(() => {
      const focused = document.activeElement as HTMLElement | null;
      return {
        inMain: focused?.closest("main") !== null,
        outline: focused ? getComputedStyle(focused).outlineStyle : "none",
      };
    });
    expect(inMain.inMain).toBe(true);
    expect(inMain.outline).not.toBe("none");
  });

  it("lists clients, projects and users with every row's actions in reach", async () => {
    await page.goto("/clients/all");
    const clientRow = page.getByRole(name === "phone" ? "listitem" : "row").filter({ hasText: client.name });
    await clientRow.waitFor();
    await checkScreen(page, `clients (${name})`);
    const clientActions = clientRow.getByRole("button").last();
    await expectWithinScreen(clientActions, viewport.width);
    if (name === "phone") await screenshot(page, "phone-clients-cards");

    await page.goto("/projects/all");
    const projectRow = page.getByRole(name === "phone" ? "listitem" : "row").filter({ hasText: project.name });
    const projectMenu = projectRow.getByRole("button", { name: `Actions for ${project.name}` });
    await projectMenu.waitFor();
    await checkScreen(page, `projects (${name})`);
    await expectWithinScreen(projectMenu, viewport.width);
    await projectMenu.click();
    await expectWithinScreen(page.getByRole("menuitem", { name: "Delete" }), viewport.width);
    await page.keyboard.press("Escape");
    if (name === "phone") await docsScreenshot(page, "phone-projects-cards");

    await page.goto("/users");
    await page.getByLabel("Search users").fill(waiting.email);
    const userRow = page.getByRole(name === "phone" ? "listitem" : "row").filter({ hasText: waiting.email });
    const approve = userRow.getByRole("button", { name: "Approve" });
    await approve.waitFor();
    await checkScreen(page, `users (${name})`);
    await expectWithinScreen(approve, viewport.width);

    await page.goto("/studio");
    await page.getByRole("button", { name: "Save studio settings" }).waitFor();
    await checkScreen(page, `studio (${name})`);

    await page.goto(`/clients/${client.id}`);
    await page.getByRole("heading", { level: 1, name: client.name }).waitFor();
    await page.getByText(`Sam ${name}`).first().waitFor();
    await checkScreen(page, `client (${name})`);
    // On a phone the contacts come straight after the name; the ID and dates wait at the end.
    const top = async (locator: ReturnType<typeof page.getByText>) => (await locator.boundingBox())!.y;
    const contactsAt = await top(page.getByRole("heading", { name: /^Contacts/ }));
    const createdAt = await top(page.getByText("Created", { exact: true }).first());
    expect(name === "phone" ? contactsAt < createdAt : createdAt < contactsAt).toBe(true);
    const clientsProjectMenu = page.getByRole("button", { name: `Actions for ${project.name}` });
    await expectWithinScreen(clientsProjectMenu, viewport.width);
  });

  it("refuses a text file and a past expiry before sending, shows the photos as a grid and pages the lightbox with the keys", async () => {
    await page.goto(`/projects/${project.id}`);
    const grid = page.getByRole("list", { name: "Photos" });
    await grid
      .getByRole("button")
      .nth(PHOTOS.length - 1)
      .waitFor();
    await checkScreen(page, `project (${name})`);
    if (name === "desktop") await docsScreenshot(page, "photo-grid");

    // A file that cannot be accepted is named, with why, and none of it is sent.
    const uploads: string[] = [];
    page.on("request", (request) => {
      if (request.method() === "POST" && request.url().includes("/upload")) uploads.push(request.url());
    });
    await page
      .getByTestId("attachment-drop-zone")
      .locator('input[type="file"]')
      .setInputFiles([{ name: "notes.txt", mimeType: "text/plain", buffer: Buffer.from("minutes of the meeting") }]);
    await page
      .getByLabel("Upload notes.txt")
      .getByText("Unsupported file type: only JPEG, PNG, GIF and WebP images")
      .waitFor();
    expect(uploads).toEqual([]);
    await checkScreen(page, `refused file (${name})`);
    await page.getByRole("button", { name: "Remove notes.txt" }).click();

    // A past expiry is refused where it is typed, and never sent.
    const settings = page.getByRole("form", { name: "Delivery settings" });
    await settings.getByLabel("Link expires").fill("2020-01-01T10:00");
    await settings.getByText("The expiry must be in the future").waitFor();
    await expect(settings.getByRole("button", { name: "Save delivery settings" }).isDisabled()).resolves.toBe(true);
    await checkScreen(page, `past expiry (${name})`);
    await settings.getByLabel("Link expires").fill("");

    await grid.getByRole("button", { name: PHOTOS[0] }).click();
    const lightbox = page.getByRole("dialog", { name: PHOTOS[0] });
    await lightbox.getByText(`Photo 1 of ${PHOTOS.length}`).waitFor();
    await lightbox.getByText(/ · [\d.]+ (KB|B) · 320 × 240 px$/).waitFor();
    await expect(lightbox.getByRole("link", { name: "Download" }).getAttribute("href")).resolves.toMatch(/download/);
    await page.keyboard.press("ArrowRight");
    await page.getByRole("dialog", { name: PHOTOS[1] }).getByText(`Photo 2 of ${PHOTOS.length}`).waitFor();
    await page.keyboard.press("ArrowRight");
    const last = page.getByRole("dialog", { name: PHOTOS[2] });
    await last.getByText(`Photo 3 of ${PHOTOS.length}`).waitFor();
    await expect
      .poll(() => last.locator("img").evaluate((img) => (img as HTMLImageElement).naturalWidth))
      .toBeGreaterThan(0);
    // What the lightbox shows is the photo's preview, drawn from its own signed link.
    expect(await last.locator("img").evaluate((img) => (img as HTMLImageElement).currentSrc)).toMatch(
      /\/api\/attachments\/\d+\/preview\?exp=/,
    );
    // Nothing is drawn over the lightbox: its title is what sits at its top-left corner.
    await expect(
      page.evaluate(() => document.elementFromPoint(40, 30)?.closest('[role="dialog"]') !== null),
    ).resolves.toBe(true);
    await expectNoSeriousAxeViolations(page, `lightbox (${name})`);
    if (name === "desktop") await docsScreenshot(page, "lightbox", { fullPage: false });
    await page.keyboard.press("ArrowLeft");
    await page.getByRole("dialog", { name: PHOTOS[1] }).waitFor();
    await page.keyboard.press("Escape");
    await page.getByRole("dialog").waitFor({ state: "hidden" });

    await page.goto("/projects/99999999");
    await page.getByRole("heading", { name: "Error loading project" }).waitFor();
    await checkScreen(page, `project not found (${name})`);
  });

  it("serves accessible delivery pages: the gallery, its viewer, the passcode page and a dead link, after the published project and its Send dialog", async () => {
    const token = await adminToken();
    project = await publishThroughApi(token, project.id);
    await page.goto(`/projects/${project.id}`);
    await page.getByRole("button", { name: "Send to client" }).click();
    const sending = page.getByRole("dialog", { name: "Send to client" });
    await sending.getByRole("button", { name: /^Send/ }).first().waitFor();
    await expectNoSeriousAxeViolations(page, `send to client (${name})`);
    await page.keyboard.press("Escape");
    await sending.waitFor({ state: "hidden" });
    await checkScreen(page, `published project (${name})`);
    const visitor = await browser.newContext({ viewport, isMobile: touch, hasTouch: touch, bypassCSP: true });
    visitor.setDefaultTimeout(20_000);
    const gallery = await visitor.newPage();
    await gallery.goto(new URL(project.deliveryUrl!, inject("baseUrl")).toString());
    await gallery
      .locator(".grid a")
      .nth(PHOTOS.length - 1)
      .waitFor();
    await checkScreen(gallery, `delivery page (${name})`);
    await gallery.locator(".grid a").first().click();
    const viewer = gallery.getByRole("dialog", { name: "Photo viewer" });
    await viewer.getByText(`1 / ${PHOTOS.length}`).waitFor();
    await expectNoSeriousAxeViolations(gallery, `delivery viewer (${name})`);
    await gallery.keyboard.press("Escape");

    const locked = await putJson(token, `projects/${project.id}/delivery`, { passcode: "garden-1" });
    expect(locked.status).toBe(200);
    await gallery.context().clearCookies();
    await gallery.goto(new URL(project.deliveryUrl!, inject("baseUrl")).toString());
    await gallery.getByRole("heading", { name: "Enter the passcode" }).waitFor();
    await checkScreen(gallery, `delivery passcode (${name})`);

    await gallery.goto(new URL("/d/no-such-link-at-all-000000", inject("baseUrl")).toString());
    await checkScreen(gallery, `dead delivery link (${name})`);
    await visitor.close();
  });
});
