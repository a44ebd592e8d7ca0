import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { Browser } from "playwright-core";
import { launchBrowser, newPage, screenshot } from "./browser";
import { googleIdToken } from "./google-issuer";

/**
 * Google Identity Services as the page sees it: initialize() stores the callback and prompt()
 * answers with the test's ID token, as Google's popup would after the user picks an account.
 */
function fakeGoogleIdentityScript(credential: string): string {
  return `window.google = { accounts: { id: {
    initialize(options) { window.__gsiOptions = options; },
    prompt() { setTimeout(() => window.__gsiOptions.callback({ credential: ${JSON.stringify(credential)} }), 50); },
  } } };`;
}

describe("signing in with Google", () => {
  let browser: Browser;

  beforeAll(async () => {
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.close();
  });

  it("signs a new Google account in and shows it the access-request screen", async () => {
    const { context, page } = await newPage(browser);
    const email = `google-${Date.now()}@photodrop.test`;
    const credential = await googleIdToken(inject("googleSigningKey"), {
      sub: `sub-${Date.now()}`,
      email,
      name: "Gina Google",
    });
    await page.route("https://accounts.google.com/gsi/client", (route) =>
      route.fulfill({ contentType: "text/javascript", body: fakeGoogleIdentityScript(credential) }),
    );

    await page.goto("/login");
    await page.getByRole("button", { name: "Continue with Google" }).click();

    await page.getByRole("heading", { name: "Request Access" }).waitFor();
    expect(new URL(page.url()).pathname).toBe("/");
    await page.getByText(email).waitFor();
    await page.getByText("Gina Google").waitFor();
    await screenshot(page, "google-request-access");
    await context.close();
  });
});
