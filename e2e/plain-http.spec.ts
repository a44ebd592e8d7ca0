import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import { adminToken } from "./api";
import { launchBrowser } from "./browser";
import { removeThroughApi } from "./fixtures/cleanup";
import { atLanName, clientJourney, headerRecorder, MAP_LAN_NAME, studioJourney, type Studio } from "./lan-journey";

/**
 * The whole product over plain HTTP at a LAN name, as a studio opens http://nas.local:3000 from
 * its desks and phones: not a secure context (no Web Locks, no Clipboard API), and every header
 * must fit that. The server is the global one; Chromium maps studio.lan to its loopback address.
 */
/** Waits for the tab to show the dashboard or the sign-in form, and expects the dashboard. */
async function signedInOrOut(tab: Page) {
  const dashboard = tab.getByRole("heading", { name: "Dashboard Overview" });
  await dashboard.or(tab.getByRole("button", { name: "Sign in", exact: true })).waitFor();
  expect(new URL(tab.url()).pathname).toBe("/");
  expect(await dashboard.isVisible()).toBe(true);
}

describe("the studio's network over plain HTTP", () => {
  let browser: Browser;
  const lan = atLanName(inject("baseUrl"));
  const responses = headerRecorder(lan);
  const studio: Studio = {
    baseUrl: lan,
    apiUrl: inject("baseUrl"),
    email: inject("adminEmail"),
    password: inject("adminPassword"),
    watch: responses.watch,
  };

  beforeAll(async () => {
    browser = await launchBrowser([MAP_LAN_NAME]);
  });
  let arranged: { clientId: number; projectId: number } | undefined;
  afterAll(async () => {
    await browser?.close();
    if (!arranged) return;
    const token = await adminToken();
    await removeThroughApi(token, "projects", arranged.projectId);
    await removeThroughApi(token, "clients", arranged.clientId);
  });

  it("signs in, uploads, publishes, copies the link, keeps two tabs signed in, and serves the client's page whole", async () => {
    const studioSide = await studioJourney(browser, studio, inject("baseUrl"));
    const { context, page } = studioSide;
    arranged = studioSide.arranged;
    expect(await page.evaluate(() => [window.isSecureContext, "locks" in navigator, "clipboard" in navigator])).toEqual(
      [false, false, false],
    );

    // Tabs opened at the same moment each need a session from the one refresh cookie.
    for (let round = 0; round < 4; round++) {
      const tabs = await Promise.all([context.newPage(), context.newPage()]);
      await Promise.all(tabs.map((tab) => tab.goto("/")));
      await Promise.all(tabs.map(signedInOrOut));
      await Promise.all(tabs.map((tab) => tab.reload()));
      await Promise.all(tabs.map(signedInOrOut));
      await Promise.all(tabs.map((tab) => tab.close()));
    }
    await page.goto("/");
    await page.getByRole("heading", { name: "Dashboard Overview" }).waitFor();
    expect(studioSide.errors).toEqual([]);

    await clientJourney(browser, studio, studioSide.deliveryUrl, studioSide.photos);

    const refresh = (await context.cookies()).find((c) => c.name === "photodrop_refresh");
    expect(refresh?.secure).toBe(false);
    await context.close();
    const recorded = await responses.recorded();
    expect(recorded.length).toBeGreaterThan(20);
    for (const { url, headers } of recorded) {
      expect(headers["strict-transport-security"], url).toBeUndefined();
      expect(headers["content-security-policy"] ?? "", url).not.toContain("upgrade-insecure-requests");
    }
  }, 180_000);
});
