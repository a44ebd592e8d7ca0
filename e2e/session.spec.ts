import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import { logIn, signUpAccount } from "./api";
import { launchBrowser, newPage, signInAsAdmin } from "./browser";

interface StoredSession {
  accessToken: string;
  refreshToken: string;
  expiresAt: number;
}

const SESSION_KEY = "photodrop.session";

function readStoredSession(page: Page): Promise<StoredSession> {
  return page.evaluate((key) => JSON.parse(localStorage.getItem(key) ?? "null"), SESSION_KEY);
}

function patchStoredSession(page: Page, patch: Partial<StoredSession>): Promise<void> {
  return page.evaluate(
    ([key, changes]) => {
      const session = JSON.parse(localStorage.getItem(key) ?? "{}");
      localStorage.setItem(key, JSON.stringify({ ...session, ...changes }));
    },
    [SESSION_KEY, patch] as const,
  );
}

// Survives client-side navigation but not a page load, so tests can tell the two apart.
const markPage = (page: Page) => page.evaluate(() => Object.assign(window, { loadMarker: true }));
const pageWasLoadedAgain = (page: Page) => page.evaluate(() => !("loadMarker" in window));

describe("keeping the session", () => {
  let browser: Browser;
  const waiting = { email: `waiting-${Date.now()}@photodrop.test`, password: "waiting-password-1" };

  beforeAll(async () => {
    await signUpAccount(waiting.email, waiting.password, "Walter Waiting");
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.close();
  });

  it("refreshes a token about to expire exactly once and carries on", async () => {
    const { context, page } = await newPage(browser);
    await signInAsAdmin(page);
    const before = await readStoredSession(page);

    const refreshCalls: string[] = [];
    page.on("request", (request) => {
      if (new URL(request.url()).pathname === "/api/auth/refresh") refreshCalls.push(request.method());
    });
    await patchStoredSession(page, { expiresAt: Date.now() + 60_000 });
    await page.reload();

    await page.getByRole("heading", { name: "Dashboard Overview" }).waitFor();
    await page.getByText("Storage Usage").waitFor();
    expect(refreshCalls).toEqual(["POST"]);
    const after = await readStoredSession(page);
    expect(after.refreshToken).not.toBe(before.refreshToken);
    expect(after.accessToken).not.toBe(before.accessToken);
    expect(after.expiresAt).toBeGreaterThan(Date.now() + 30 * 60_000);
    await context.close();
  });

  it("returns to the login screen when the server no longer accepts the session", async () => {
    const { context, page } = await newPage(browser);
    await signInAsAdmin(page);

    const { refreshToken } = await readStoredSession(page);
    const revoked = await fetch(`${inject("baseUrl")}/api/auth/logout`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ refreshToken }),
    });
    expect(revoked.status).toBe(204);
    await patchStoredSession(page, { accessToken: "no-longer-valid" });
    await page.reload();

    await page.waitForURL((url) => url.pathname === "/login");
    await page.getByRole("button", { name: "Sign in", exact: true }).waitFor();
    await expect(page.evaluate((key) => localStorage.getItem(key), SESSION_KEY)).resolves.toBeNull();
    await context.close();
  });

  it("opens the choose-a-new-password view from a reset link and shows a refused token in red", async () => {
    const { context, page } = await newPage(browser);
    await page.goto("/login?mode=reset&token=not-a-real-token");

    await page.getByText("Choose a new password").waitFor();
    await page.getByText("Password must be at least 6 characters long.").waitFor();
    await page.getByLabel("New password").fill("another-password-1");
    await page.getByRole("button", { name: "Set New Password" }).click();

    const error = page.getByRole("alert");
    await error.waitFor();
    await expect(error.evaluate((node) => getComputedStyle(node).color)).resolves.toBe("rgb(250, 82, 82)");

    await page.getByRole("button", { name: "Back to Sign In" }).click();
    await page.getByRole("button", { name: "Sign in", exact: true }).waitFor();
    expect(new URL(page.url()).search).toBe("");
    await context.close();
  });

  it("loads the page afresh when a different user signs in after a sign-out, so nothing cached carries over", async () => {
    const { context, page } = await newPage(browser);
    await signInAsAdmin(page);
    await page.getByRole("button", { name: "Log out" }).click();
    await page.getByRole("button", { name: "Sign in", exact: true }).waitFor();
    await markPage(page);

    await page.getByLabel("Email").fill(waiting.email);
    await page.getByLabel("Password").fill(waiting.password);
    await page.getByRole("button", { name: "Sign in", exact: true }).click();

    await page.getByRole("heading", { name: "Request Access" }).waitFor();
    await expect(pageWasLoadedAgain(page)).resolves.toBe(true);
    await page.getByText(waiting.email).waitFor();
    await context.close();
  });

  it("reloads a tab when another tab signs in as someone else", async () => {
    const { context, page: first } = await newPage(browser);
    await signInAsAdmin(first);
    await markPage(first);

    // The other tab replaces the session with another user's, with no sign-out in between: only
    // the change of user can make the first tab load again.
    const other = await logIn(waiting.email, waiting.password);
    const second = await context.newPage();
    await second.goto("/login");
    await second.evaluate(
      ([key, session]) =>
        localStorage.setItem(key, JSON.stringify({ ...session, expiresAt: Date.now() + session.expiresIn * 1000 })),
      [SESSION_KEY, other] as const,
    );

    await first.getByRole("heading", { name: "Request Access" }).waitFor();
    await expect(pageWasLoadedAgain(first)).resolves.toBe(true);
    await context.close();
  });
});
