import { afterAll, beforeAll, describe, inject, it, expect } from "vitest";
import type { Browser } from "playwright-core";
import { adminToken, create, putJson } from "./api";
import { launchBrowser, signInAsAdmin, SIZES } from "./browser";
import { removeThroughApi, type Named } from "./fixtures/cleanup";
import { imageFile } from "./fixtures/images";
import { publishThroughApi } from "./fixtures/publish";
import { uploadThroughApi } from "./fixtures/upload";

/** How far ahead the link's expiry is set: long enough to see it live on a loaded machine. */
const EXPIRES_IN_MS = 20_000;

describe.each(SIZES)("the delivery badge on a $name", ({ name, viewport, touch }) => {
  let browser: Browser;
  let project: Named;

  beforeAll(async () => {
    const token = await adminToken();
    project = await create<Named>(token, "projects", { name: `Expiring Gallery ${name}` });
    await uploadThroughApi(token, project.id, await imageFile("dusk.jpg", "jpeg", "#6f4f8f"));
    await publishThroughApi(token, project.id);
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await removeThroughApi(await adminToken(), "projects", project.id);
  });

  it("turns from live to 'Expired' at the moment of expiry, without a reload", async () => {
    const context = await browser.newContext({
      baseURL: inject("baseUrl"),
      viewport,
      isMobile: touch,
      hasTouch: touch,
    });
    context.setDefaultTimeout(20_000);
    const page = await context.newPage();
    await signInAsAdmin(page);

    const expiresAt = new Date(Date.now() + EXPIRES_IN_MS).toISOString();
    const response = await putJson(await adminToken(), `projects/${project.id}/delivery`, { expiresAt });
    expect(response.status).toBe(200);

    await page.goto(`/projects/${project.id}`);
    await page.getByText("Live", { exact: true }).waitFor();
    await page.getByText(/^Expires /).waitFor();
    // A mark on this document: gone if the page were reloaded.
    await page.evaluate(() => ((window as unknown as { sameDocument: boolean }).sameDocument = true));

    await page.getByText("Expired", { exact: true }).waitFor({ timeout: EXPIRES_IN_MS + 20_000 });
    expect(Date.now()).toBeGreaterThanOrEqual(Date.parse(expiresAt));
    expect(await page.getByText(/^Expires /).count()).toBe(0);
    expect(await page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument)).toBe(true);
    await context.close();
  });
});
