import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { Browser } from "playwright-core";
import { launchBrowser, newPage, signInAsAdmin } from "./browser";

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser?.close());

/** Every Content-Security-Policy violation the page reports, recorded before any of its scripts run. */
const RECORD_VIOLATIONS = () => {
  const seen: string[] = [];
  (window as unknown as { cspViolations: string[] }).cspViolations = seen;
  document.addEventListener("securitypolicyviolation", (e) => seen.push(`${e.violatedDirective} ${e.blockedURI}`));
};

describe("the API reference at /api/docs", () => {
  it("renders every operation of /api/openapi.json with no CSP violation and nothing from another host", async () => {
    const { context, page } = await newPage(browser);
    await page.addInitScript(RECORD_VIOLATIONS);
    const consoleErrors: string[] = [];
    page.on("console", (message) => {
      if (message.type() === "error") consoleErrors.push(message.text());
    });
    const foreign: string[] = [];
    const origin = new URL(inject("baseUrl")).origin;
    page.on("request", (request) => {
      const url = request.url();
      if (!url.startsWith("data:") && new URL(url).origin !== origin) foreign.push(url);
    });

    const response = await page.goto("/api/docs");
    expect(response?.status()).toBe(200);
    const csp = (await response!.allHeaders())["content-security-policy"];
    const scriptSrc = csp.split(";").find((d) => d.trim().startsWith("script-src "));
    expect(scriptSrc).toMatch(/^script-src 'self'/);
    expect(scriptSrc).not.toMatch(/unsafe/);

    const document = (await (await page.request.get("/api/openapi.json")).json()) as {
      paths: Record<string, Record<string, unknown>>;
    };
    const operationCount = Object.values(document.paths).reduce((n, methods) => n + Object.keys(methods).length, 0);
    await expect.poll(() => page.locator(".opblock").count()).toBe(operationCount);
    await expect(page.locator(".info .title").textContent()).resolves.toContain("Photodrop API");

    // An operation opens with its parameters and answers.
    await page.locator("#operations-Clients-postClients .opblock-summary").click();
    await page.locator("#operations-Clients-postClients .responses-table").waitFor();

    expect(await page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations)).toEqual([]);
    expect(consoleErrors).toEqual([]);
    expect(foreign).toEqual([]);
    await context.close();
  });

  it("is linked from the web app's user menu, opening in a new tab", async () => {
    const { context, page } = await newPage(browser);
    await signInAsAdmin(page);
    await page.getByRole("button", { name: "Account menu" }).click();
    const link = page.getByRole("menuitem", { name: "API reference" });
    await expect(link.getAttribute("href")).resolves.toBe("/api/docs");
    await expect(link.getAttribute("target")).resolves.toBe("_blank");
    const [tab] = await Promise.all([context.waitForEvent("page"), link.click()]);
    await tab.locator(".opblock").first().waitFor();
    expect(new URL(tab.url()).pathname).toBe("/api/docs");
    await context.close();
  });
});
