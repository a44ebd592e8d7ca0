import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser } from "playwright-core";
import { launchBrowser, newPage, screenshot } from "./browser";

describe("asking for access", () => {
  let browser: Browser;

  beforeAll(async () => {
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.close();
  });

  it("shows a new account the access-request screen and confirms the submitted request", async () => {
    const { context, page } = await newPage(browser);
    const email = `newcomer-${Date.now()}@photodrop.test`;
    await page.goto("/login");
    await page.getByRole("button", { name: "Sign up", exact: true }).click();
    await page.getByText("Password must be at least 6 characters long.").waitFor();
    await page.getByLabel("Name").fill("Nora Newcomer");
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password").fill("newcomer-password-1");
    await page.getByRole("button", { name: "Sign up", exact: true }).click();

    await page.getByRole("heading", { name: "Request Access" }).waitFor();
    expect(new URL(page.url()).pathname).toBe("/");
    await expect(page.getByText("You need approval to access this application").isVisible()).resolves.toBe(true);
    await page.getByText(email).waitFor();
    await page.getByText("Nora Newcomer").waitFor();
    await expect(page.getByRole("navigation", { name: "Main navigation" }).count()).resolves.toBe(0);
    await screenshot(page, "request-access");

    await page.getByLabel("Message (optional)").fill("I joined the studio this week.");
    await page.getByRole("button", { name: "Submit Request" }).click();

    await page.getByRole("heading", { name: "Access Request Submitted" }).waitFor();
    await expect(
      page
        .getByText(
          "Your request for access has been submitted successfully. You will be notified when your access is approved.",
        )
        .isVisible(),
    ).resolves.toBe(true);
    await expect(
      page.getByText("If you need immediate assistance, please contact the administrator directly.").isVisible(),
    ).resolves.toBe(true);
    await screenshot(page, "access-request-submitted");
    await context.close();
  });
});
