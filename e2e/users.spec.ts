import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { launchBrowser, screenshot, settled } from "./browser";
import { startFreshServer, type FreshServer } from "./fresh-server";

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

describe("access administration, from a fresh installation", () => {
  let browser: Browser;
  let server: FreshServer;
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    [browser, server] = await Promise.all([launchBrowser(), startFreshServer()]);
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  async function openContext(): Promise<Page> {
    const context = await browser.newContext({ baseURL: server.baseUrl, viewport: { width: 1366, height: 860 } });
    context.setDefaultTimeout(15_000);
    contexts.push(context);
    return context.newPage();
  }

  async function signUp(page: Page, name: string, email: string, password: string) {
    await page.goto("/login");
    await page.getByRole("button", { name: "Sign up", exact: true }).click();
    await page.getByLabel("Name").fill(name);
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password").fill(password);
    await page.getByRole("button", { name: "Sign up", exact: true }).click();
  }

  /** Marks the page's JavaScript world: still marked later means it was never reloaded. */
  const markNoReload = (page: Page) => page.evaluate(() => ((window as unknown as { __kept: boolean }).__kept = true));
  const stillNotReloaded = (page: Page) =>
    page.evaluate(() => (window as unknown as { __kept?: boolean }).__kept === true);

  const usersLink = (page: Page) =>
    page.getByRole("navigation", { name: "Main navigation" }).getByRole("link", { name: /^Users/ });
  const row = (page: Page, email: string) => page.getByRole("row").filter({ hasText: email });

  /**
   * What lets a waiting page in, in the order it came: `frame` for an access-changed message on its
   * live socket, `check` for each access check it asks (the live recheck's, or the 30 s fallback poll's).
   */
  function accessTimeline(page: Page): string[] {
    const seen: string[] = [];
    page.on("websocket", (socket) =>
      socket.on("framereceived", ({ payload }) => {
        if (String(payload).includes('"access-changed"')) seen.push("frame");
      }),
    );
    page.on("request", (request) => {
      if (new URL(request.url()).pathname === "/api/users/me/access") seen.push("check");
    });
    return seen;
  }

  /**
   * Holds off the waiting screen's 30 s fallback poll in this page (WAITING_POLL_MS in access-gate.tsx:
   * that interval is never set), so only the live access-changed message can let it in; the poll
   * could come due at any moment and let it in just as well, within any wait a loaded machine needs.
   */
  const withoutFallbackPoll = (page: Page) =>
    page.addInitScript(() => {
      const setIntervalAsBuilt = window.setInterval.bind(window);
      window.setInterval = ((handler: TimerHandler, timeout?: number, ...args: unknown[]) => {
        if (timeout !== 30_000) return setIntervalAsBuilt(handler, timeout, ...args);
        (window as unknown as { __pollHeldOff: boolean }).__pollHeldOff = true;
        return 0;
      }) as typeof window.setInterval;
    });
  const pollHeldOff = (page: Page) =>
    page.evaluate(() => (window as unknown as { __pollHeldOff?: boolean }).__pollHeldOff === true);

  it("lets the first admin approve a request live, revoke it, and keeps Users to admins", async () => {
    const admin = await openContext();
    await signUp(admin, "Ada Admin", "ada@studio.test", "ada-password-1");
    await admin.getByRole("heading", { name: "Dashboard Overview" }).waitFor();
    await usersLink(admin).click();
    await admin.getByRole("heading", { name: "Users" }).waitFor();
    await row(admin, "ada@studio.test").waitFor();
    // Nobody is waiting: the list opens on All.
    await expect(admin.getByRole("radio", { name: "All" }).isChecked()).resolves.toBe(true);
    await expect(
      usersLink(admin)
        .getByLabel(/pending access/)
        .count(),
    ).resolves.toBe(0);
    await markNoReload(admin);

    const newcomer = await openContext();
    const newcomerAccess = accessTimeline(newcomer);
    await withoutFallbackPoll(newcomer);
    await signUp(newcomer, "Nico Newcomer", "nico@studio.test", "nico-password-1");
    await newcomer.getByRole("heading", { name: "Request Access" }).waitFor();
    await newcomer.getByLabel("Message (optional)").fill("I retouch the wedding albums.");
    await newcomer.getByRole("button", { name: "Submit Request" }).click();
    await newcomer.getByRole("heading", { name: "Access Request Submitted" }).waitFor();
    await markNoReload(newcomer);
    await expect.poll(() => pollHeldOff(newcomer)).toBe(true);

    // The admin's badge and list follow without a reload.
    await usersLink(admin).getByLabel("1 pending access request").waitFor();
    await row(admin, "nico@studio.test").filter({ hasText: "I retouch the wedding albums." }).waitFor();
    // Opened afresh while someone is waiting, the list starts on Pending.
    await admin.getByRole("navigation", { name: "Main navigation" }).getByRole("link", { name: "Dashboard" }).click();
    await admin.getByRole("heading", { name: "Dashboard Overview" }).waitFor();
    await usersLink(admin).click();
    await expect.poll(() => admin.getByRole("radio", { name: "Pending" }).isChecked()).toBe(true);
    await expect(stillNotReloaded(admin)).resolves.toBe(true);
    await expect.poll(() => new URL(admin.url()).search).toContain("filters");
    await expect.poll(() => admin.getByRole("row").count()).toBe(2);
    await screenshot(admin, "users-pending");
    fs.mkdirSync(path.join(repoRoot, "docs/screenshots"), { recursive: true });
    fs.copyFileSync(
      path.join(repoRoot, "e2e/screenshots/users-pending.png"),
      path.join(repoRoot, "docs/screenshots/users-pending.png"),
    );

    const beforeApproval = newcomerAccess.length;
    await row(admin, "nico@studio.test").getByRole("button", { name: "Approve" }).click();
    // The waiting user's open screen lets them in: no reload, no new sign-in.
    await newcomer.getByRole("heading", { name: "Dashboard Overview" }).waitFor();
    // Through the live access-changed message and the check it made: the fallback poll is held off.
    await expect.poll(() => newcomerAccess.slice(beforeApproval).join(" ")).toMatch(/frame.* check/);
    await expect(stillNotReloaded(newcomer)).resolves.toBe(true);
    await expect(usersLink(newcomer).count()).resolves.toBe(0);
    // The admin's badge follows the approval once its refetch lands (seen late under load in CI).
    await expect
      .poll(() =>
        usersLink(admin)
          .getByLabel(/pending access/)
          .count(),
      )
      .toBe(0);

    await admin.getByText("Approved", { exact: true }).first().click();
    await row(admin, "nico@studio.test").getByRole("button", { name: "Revoke" }).click();
    const dialog = admin.getByRole("dialog", { name: "Revoke access" });
    await dialog.getByText("nico@studio.test").waitFor();
    await settled(dialog);
    await dialog.getByRole("button", { name: "Revoke" }).click();
    await dialog.waitFor({ state: "hidden" });
    await row(admin, "nico@studio.test").waitFor({ state: "detached" });

    // The revoked user's next action lands on the request-access screen, with no error shown.
    await newcomer
      .getByRole("navigation", { name: "Main navigation" })
      .getByRole("link", { name: "All Clients" })
      .click()
      .catch(() => undefined);
    await newcomer.getByRole("heading", { name: "Request Access" }).waitFor();
    await expect(newcomer.getByRole("alert").count()).resolves.toBe(0);
    await expect(stillNotReloaded(newcomer)).resolves.toBe(true);

    // A staff member: no Users entry, and /users shows the no-access state without asking /api/users.
    const staff = await openContext();
    await signUp(staff, "Sam Staff", "sam@studio.test", "sam-password-1");
    await staff.getByRole("heading", { name: "Request Access" }).waitFor();
    await admin.getByText("All", { exact: true }).first().click();
    await row(admin, "sam@studio.test").getByRole("button", { name: "Approve" }).click();
    await staff.getByRole("heading", { name: "Dashboard Overview" }).waitFor({ timeout: 20_000 });
    const usersCalls: string[] = [];
    staff.on("request", (request) => {
      if (
        new URL(request.url()).pathname.startsWith("/api/users") &&
        !new URL(request.url()).pathname.startsWith("/api/users/me")
      ) {
        usersCalls.push(request.url());
      }
    });
    await expect(usersLink(staff).count()).resolves.toBe(0);
    await staff.goto("/users");
    await staff.getByText("You do not have access to this page").waitFor();
    await expect(usersLink(staff).count()).resolves.toBe(0);
    expect(usersCalls).toEqual([]);
    await screenshot(staff, "users-no-access");

    // A promotion and a demotion reach the open navigation at once.
    await row(admin, "sam@studio.test").getByRole("button", { name: "Make admin" }).click();
    await usersLink(staff).waitFor();
    await row(admin, "sam@studio.test").getByRole("button", { name: "Make staff" }).click();
    await usersLink(staff).waitFor({ state: "detached" });

    // With no live socket at all, revocation still reaches an open app: its next call gets a 403.
    const offline = await openContext();
    await offline.context().routeWebSocket(/\/events/, (socket) => socket.close());
    await signUp(offline, "Olga Offline", "olga@studio.test", "olga-password-1");
    await offline.getByRole("heading", { name: "Request Access" }).waitFor();
    await row(admin, "olga@studio.test").getByRole("button", { name: "Approve" }).click();
    await row(admin, "olga@studio.test").getByText("Approved").waitFor();
    await offline.reload();
    await offline.getByRole("heading", { name: "Dashboard Overview" }).waitFor();
    await markNoReload(offline);
    await row(admin, "olga@studio.test").getByRole("button", { name: "Revoke" }).click();
    await settled(dialog);
    await dialog.getByRole("button", { name: "Revoke" }).click();
    await dialog.waitFor({ state: "hidden" });
    await expect(offline.getByRole("heading", { name: "Dashboard Overview" }).isVisible()).resolves.toBe(true);
    await offline
      .getByRole("navigation", { name: "Main navigation" })
      .getByRole("link", { name: "All Clients" })
      .click();
    await offline.getByRole("heading", { name: "Request Access" }).waitFor();
    await expect(offline.getByRole("alert").count()).resolves.toBe(0);
    await expect(stillNotReloaded(offline)).resolves.toBe(true);

    // The last admin cannot revoke themself: the server's refusal shows in the dialog.
    await row(admin, "ada@studio.test").getByRole("button", { name: "Revoke" }).click();
    await settled(dialog);
    await dialog.getByRole("button", { name: "Revoke" }).click();
    await dialog.getByRole("alert").filter({ hasText: "You cannot revoke your own access" }).waitFor();
    await screenshot(admin, "users-own-revoke-refused");
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await expect(row(admin, "ada@studio.test").getByText("Approved").count()).resolves.toBe(1);

    // Both mails went out (written to the log: this server has no SMTP_URL).
    expect(server.log()).toContain("Access request from nico@studio.test");
    expect(server.log()).toContain("Your Photodrop access is approved");

    for (const context of contexts) await context.close();
  }, 240_000);
});
