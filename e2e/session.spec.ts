import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import { signUpAccount } from "./api";
import { launchBrowser, newPage, signInAsAdmin } from "./browser";

const SIGNED_IN_KEY = "photodrop.signed-in";
const REFRESH_COOKIE = "photodrop_refresh";

/** The HttpOnly refresh cookie as the browser holds it (no script on the page can read it). */
async function refreshCookie(page: Page): Promise<string | undefined> {
  const cookies = await page.context().cookies();
  return cookies.find((c) => c.name === REFRESH_COOKIE)?.value;
}

/** Everything scripts on the page can read from storage. */
function storedValues(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    [localStorage, sessionStorage].flatMap((store) =>
      Object.keys(store).map((key) => `${key}=${store.getItem(key) ?? ""}`),
    ),
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

  it("keeps no token where a script can read it, and a reload signs in again through the cookie, once", async () => {
    const { context, page } = await newPage(browser);
    const signInAnswer = page.waitForResponse((res) => new URL(res.url()).pathname === "/api/auth/login");
    await signInAsAdmin(page);
    const { accessToken } = (await (await signInAnswer).json()) as { accessToken: string };
    const cookieBefore = await refreshCookie(page);
    expect(cookieBefore).toBeTruthy();
    const cookie = (await context.cookies()).find((c) => c.name === REFRESH_COOKIE)!;
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: "Strict", path: "/api/auth" });

    const stored = await storedValues(page);
    expect(stored.length).toBeGreaterThan(0);
    for (const value of stored) {
      expect(value).not.toContain(accessToken);
      expect(value).not.toContain(cookieBefore!);
      expect(value).not.toMatch(/eyJ[\w-]+\.[\w-]+\.[\w-]+/);
    }
    await expect(page.evaluate(() => document.cookie)).resolves.not.toContain(REFRESH_COOKIE);

    const refreshCalls: string[] = [];
    page.on("request", (request) => {
      if (new URL(request.url()).pathname === "/api/auth/refresh") refreshCalls.push(request.method());
    });
    await page.reload();
    await page.getByRole("heading", { name: "Dashboard Overview" }).waitFor();
    await page.getByText("Storage Usage").waitFor();
    expect(refreshCalls).toEqual(["POST"]);
    expect(await refreshCookie(page)).not.toBe(cookieBefore);
    await context.close();
  });

  it("returns to the login screen when the server no longer accepts the session", async () => {
    const { context, page } = await newPage(browser);
    await signInAsAdmin(page);

    const revoked = await fetch(`${inject("baseUrl")}/api/auth/logout`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ refreshToken: await refreshCookie(page) }),
    });
    expect(revoked.status).toBe(204);
    await page.reload();

    await page.waitForURL((url) => url.pathname === "/login");
    await page.getByRole("button", { name: "Sign in", exact: true }).waitFor();
    await expect(page.evaluate((key) => localStorage.getItem(key), SIGNED_IN_KEY)).resolves.toBeNull();
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
    await expect(error.evaluate((node) => getComputedStyle(node).color)).resolves.toBe("rgb(201, 42, 42)");

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

    // The other tab signs in as someone else, with no sign-out in between, the way the app does:
    // the server sets the shared refresh cookie, the tab records who is signed in. Only the change
    // of user can make the first tab load again.
    const second = await context.newPage();
    await second.goto("/api/auth/config");
    await second.evaluate(
      async ([key, email, password]) => {
        const res = await fetch("/api/auth/login", {
          method: "POST",
          headers: { "Content-Type": "application/json", "X-Photodrop-Session": "cookie" },
          body: JSON.stringify({ email, password }),
        });
        const { user } = (await res.json()) as { user: { uid: string } };
        localStorage.setItem(key, JSON.stringify({ uid: user.uid }));
      },
      [SIGNED_IN_KEY, waiting.email, waiting.password] as const,
    );

    await first.getByRole("heading", { name: "Request Access" }).waitFor();
    await expect(pageWasLoadedAgain(first)).resolves.toBe(true);
    await context.close();
  });

  it("signs every tab out when one tab signs out", async () => {
    const { context, page: first } = await newPage(browser);
    await signInAsAdmin(first);
    const second = await context.newPage();
    await second.goto("/");
    await second.getByRole("heading", { name: "Dashboard Overview" }).waitFor();

    await second.getByRole("button", { name: "Log out" }).click();
    await second.getByRole("button", { name: "Sign in", exact: true }).waitFor();
    await first.waitForURL((url) => url.pathname === "/login");
    await first.getByRole("button", { name: "Sign in", exact: true }).waitFor();
    expect(await refreshCookie(first)).toBeUndefined();
    await context.close();
  });

  it("lets two tabs reload at the same moment without the server taking it for a stolen token", async () => {
    const { context, page: first } = await newPage(browser);
    await signInAsAdmin(first);
    const second = await context.newPage();
    await second.goto("/");
    await second.getByRole("heading", { name: "Dashboard Overview" }).waitFor();

    // Both refresh with the one cookie; Web Locks make them take turns, each with the cookie the other left.
    await Promise.all([first.reload(), second.reload()]);
    for (const page of [first, second]) await page.getByRole("heading", { name: "Dashboard Overview" }).waitFor();
    await first.reload();
    await first.getByRole("heading", { name: "Dashboard Overview" }).waitFor();
    expect(new URL(first.url()).pathname).not.toBe("/login");
    await context.close();
  });
});
