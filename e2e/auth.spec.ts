import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { Browser } from "playwright-core";
import { launchBrowser, newPage, screenshot, signIn, signInAsAdmin } from "./browser";

describe("signing in and out", () => {
  let browser: Browser;

  beforeAll(async () => {
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.close();
  });

  it("sends a visitor without a session from a guarded page to the login screen", async () => {
    const { context, page } = await newPage(browser);
    await page.goto("/projects/all");

    await page.waitForURL((url) => url.pathname === "/login");
    await page.getByRole("button", { name: "Sign in", exact: true }).waitFor();
    await expect(page.getByRole("button", { name: "Forgot your password?" }).isVisible()).resolves.toBe(true);
    await screenshot(page, "login");
    await context.close();
  });

  it("signs the admin in to the dashboard with a 60 px header and a 300 px navigation, then out again", async () => {
    const { context, page } = await newPage(browser);
    await signInAsAdmin(page);
    expect(new URL(page.url()).pathname).toBe("/");

    const header = await page.getByRole("banner").boundingBox();
    expect(header?.height).toBe(60);
    const navigation = await page.getByRole("navigation", { name: "Main navigation" }).boundingBox();
    expect(navigation?.width).toBe(300);
    for (const label of ["Dashboard", "All Projects", "Recent Projects", "All Clients", "Recent Clients"]) {
      await expect(page.getByRole("link", { name: label, exact: true }).isVisible()).resolves.toBe(true);
    }

    const logout = page.getByRole("button", { name: "Log out" });
    await logout.hover();
    await expect(page.getByRole("tooltip").textContent()).resolves.toBe(inject("adminEmail"));
    await screenshot(page, "dashboard");

    await logout.click();
    await page.waitForURL((url) => url.pathname === "/login");
    await page.getByRole("button", { name: "Sign in", exact: true }).waitFor();

    await page.goto("/");
    await page.waitForURL((url) => url.pathname === "/login");
    await context.close();
  });

  it("shows the server's message in red when the password is wrong", async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, inject("adminEmail"), "not-the-password");

    const error = page.getByRole("alert").filter({ hasText: "Invalid email or password" });
    await error.waitFor();
    await expect(error.evaluate((node) => getComputedStyle(node).color)).resolves.toBe("rgb(201, 42, 42)");
    expect(new URL(page.url()).pathname).toBe("/login");
    await context.close();
  });

  it("asks for an e-mail address before sending a reset e-mail, then confirms it was sent", async () => {
    const { context, page } = await newPage(browser);
    await page.goto("/login");
    await page.getByRole("button", { name: "Forgot your password?" }).click();

    await page.getByRole("button", { name: "Send Reset Email" }).click();
    await page.getByText("Please enter your email address").waitFor();

    await page.getByLabel("Email").fill(inject("adminEmail"));
    await page.getByRole("button", { name: "Send Reset Email" }).click();
    await page.getByText("Password reset email sent! Check your inbox.").waitFor();
    await screenshot(page, "forgot-password");

    await page.getByRole("button", { name: "Back to Sign In" }).click();
    await page.getByRole("button", { name: "Sign in", exact: true }).waitFor();
    await context.close();
  });
});
