import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser } from "playwright-core";
import { inject } from "vitest";
import { launchBrowser, screenshot, signInAsAdmin, expectNoSidewaysScroll } from "./browser";
import { arrangeClientWithProject, type Named } from "./fixtures/cleanup";
import { imageFile } from "./fixtures/images";

const PHONE = { width: 390, height: 844 };

describe("on a 390 × 844 phone", () => {
  let browser: Browser;
  let project: Named;
  let removeArranged: (() => Promise<void>) | undefined;

  beforeAll(async () => {
    ({ project, remove: removeArranged } = await arrangeClientWithProject(
      "Phone Journey Client",
      "Phone Journey Project",
    ));
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.close();
    await removeArranged?.();
  });

  it("signs in, opens the burger, goes to a project, uploads and publishes, never wider than the screen", async () => {
    const context = await browser.newContext({
      baseURL: inject("baseUrl"),
      viewport: PHONE,
      isMobile: true,
      hasTouch: true,
    });
    context.setDefaultTimeout(20_000);
    const page = await context.newPage();
    await signInAsAdmin(page);
    await expectNoSidewaysScroll(page);

    const navigation = page.getByRole("navigation", { name: "Main navigation" });
    await expect(navigation.isVisible()).resolves.toBe(false);
    await page.getByRole("button", { name: "Open navigation" }).click();
    await navigation.getByRole("link", { name: "All Projects" }).waitFor();
    await expectNoSidewaysScroll(page);
    await screenshot(page, "phone-navigation");

    await navigation.getByRole("link", { name: "All Projects" }).click();
    await page.getByRole("heading", { name: "All Projects" }).waitFor();
    // Following a link closes the navigation.
    await navigation.waitFor({ state: "hidden" });
    await page.getByRole("button", { name: "Open navigation" }).waitFor();
    await expectNoSidewaysScroll(page);

    await page.getByRole("link", { name: "Phone Journey Project" }).click();
    await page.waitForURL(new RegExp(`/projects/${project.id}$`));
    await page.getByText("No attachments found for this project.").waitFor();
    await expectNoSidewaysScroll(page);
    // A touch screen is tapped, not dragged onto; the photos come right after the header.
    await page.getByText("Tap to choose photos").waitFor();
    const dropZone = await page.getByTestId("attachment-drop-zone").boundingBox();
    const details = await page.getByText("Project Details").boundingBox();
    expect(dropZone!.y).toBeLessThan(details!.y);

    await page
      .getByTestId("attachment-drop-zone")
      .locator('input[type="file"]')
      .setInputFiles([await imageFile("phone-shot.jpg", "jpeg", "#8e44ad", 1200)]);
    await page.getByText("Attachments (1)").waitFor();
    await page.getByText("Uploading files...").waitFor({ state: "hidden" });
    await page.getByLabel("phone-shot.jpg", { exact: true }).waitFor();
    await expectNoSidewaysScroll(page);
    await screenshot(page, "phone-layout");

    // A one-photo build ends at once: the call is held back until the start has been photographed.
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    const publishCall = /\/api\/projects\/\d+\/publish$/;
    await page.route(publishCall, async (route) => {
      await held;
      await route.continue();
    });
    await page.getByRole("button", { name: "Publish Project", exact: true }).click();
    await page.getByText(/^Publishing\.\.\. \d+%$/).waitFor();
    await expectNoSidewaysScroll(page);
    await screenshot(page, "publishing");
    // No unroute: unrouting while the held call is released races its continue ("Route is already handled").
    release();
    await page.getByText(/^Published on /).waitFor();
    await expectNoSidewaysScroll(page);

    // The header keeps Publish / Unpublish; the rest is in one menu.
    await expect(page.getByRole("button", { name: "Edit Project" }).count()).resolves.toBe(0);
    await page.getByRole("button", { name: "Project actions" }).click();
    for (const item of ["Download ZIP", "Copy link", "Copy page link", "Open delivery page"])
      await page.getByRole("menuitem", { name: item }).waitFor();
    await expectNoSidewaysScroll(page);
    await page.getByRole("menuitem", { name: "Edit Project" }).click();
    const dialog = page.getByRole("dialog", { name: "Edit Project" });
    await dialog.getByLabel("Name").waitFor();
    const box = await dialog.boundingBox();
    expect(box!.x).toBeGreaterThanOrEqual(0);
    expect(box!.x + box!.width).toBeLessThanOrEqual(PHONE.width);
    await expectNoSidewaysScroll(page);
    await context.close();
  });
});
