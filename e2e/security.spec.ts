import fs from "node:fs";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import { adminToken, getJson, putJson, signUpAccount } from "./api";
import { expectNoSeriousAxeViolations } from "./axe";
import { docsScreenshot, launchBrowser, screenshot, settled, SIZES, expectNoSidewaysScroll } from "./browser";
import { addVirtualAuthenticator } from "./fixtures/virtual-authenticator";
import { codeAt, nextCode } from "./fixtures/totp";

/**
 * The user menu's Security page, as a staff member uses it: two-factor sign-in turned on from the
 * secret the page shows (the code made here by a TOTP library), the recovery codes, signing in with
 * the second step, a passkey made by Chromium's virtual authenticator, and the devices signed in.
 * The pages are at http://localhost:<port>: a secure context, and a name (not an IP) passkeys accept.
 */

const PASSWORD = "security-Staff-password-1";
const localBase = () => inject("baseUrl").replace("127.0.0.1", "localhost");

/** A staff account, signed up and approved through the API. */
async function approvedStaff(email: string): Promise<void> {
  await signUpAccount(email, PASSWORD, "Sam Security");
  const token = await adminToken();
  const users = await getJson<Array<{ uid: string; email: string }>>(token, "users?_start=0&_end=200");
  const uid = users.find((user) => user.email === email)?.uid;
  if (!uid) throw new Error("The staff account is not in the users list");
  const approved = await putJson(token, `users/${uid}`, { hasAccess: true });
  if (!approved.ok) throw new Error(`Approving failed: ${approved.status}`);
}

const FIREFOX = "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0";

async function openContext(
  browser: Browser,
  viewport: { width: number; height: number },
  touch: boolean,
  userAgent?: string,
) {
  // bypassCSP: axe-core goes in as an injected script.
  const context = await browser.newContext({
    baseURL: localBase(),
    viewport,
    hasTouch: touch,
    bypassCSP: true,
    userAgent,
  });
  context.setDefaultTimeout(15_000);
  return { context, page: await context.newPage() };
}

/** The e-mail and password step; resolves once the second step asks for a code. */
async function passwordStep(page: Page, email: string) {
  await page.goto("/login");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await page.getByLabel("Two-factor code").waitFor();
}

async function openSecurity(page: Page) {
  await page.getByRole("button", { name: "Account menu" }).click();
  await page.getByRole("menuitem", { name: "Security" }).click();
  await page.getByRole("heading", { name: "Security", level: 1 }).waitFor();
}

describe("the Security page", () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it.each(SIZES)(
    "turns on two-factor sign-in, adds a passkey, signs another device out and signs in with the passkey ($name)",
    async ({ name, viewport, touch }) => {
      const email = `security-${name}-${Date.now()}@photodrop.test`;
      await approvedStaff(email);
      const { context, page } = await openContext(browser, viewport, touch);
      await page.goto("/login");
      await page.getByLabel("Email").fill(email);
      await page.getByLabel("Password").fill(PASSWORD);
      await page.getByRole("button", { name: "Sign in", exact: true }).click();
      await openSecurity(page);
      await expectNoSidewaysScroll(page);
      await expectNoSeriousAxeViolations(page, `security-${name}`);

      // Two-factor on: the QR code drawn in the page, the key as text, a code made from that key.
      await page.getByRole("button", { name: "Turn on two-factor sign-in" }).click();
      const enrol = page.getByRole("dialog", { name: "Turn on two-factor sign-in" });
      await settled(enrol);
      await enrol.getByRole("img", { name: "QR code for your authenticator app" }).waitFor();
      const secret = (await enrol.getByLabel("Key for your authenticator app").textContent())!.replace(/\s+/g, "");
      expect(secret).toMatch(/^[A-Z2-7]{16,}$/);
      await expectNoSeriousAxeViolations(page, `security-enrol-${name}`);
      await screenshot(page, `security-enrol-${name}`, { fullPage: false });
      await enrol.getByLabel("Code from your app").fill(codeAt(secret));
      await enrol.getByRole("button", { name: "Turn on", exact: true }).click();

      const shown = page.getByRole("dialog", { name: "Your recovery codes" });
      await shown.getByText("Keep these codes somewhere safe now: they are not shown again.").waitFor();
      const codes = await shown.getByRole("listitem").allTextContents();
      expect(codes).toHaveLength(10);
      const download = page.waitForEvent("download");
      await shown.getByRole("button", { name: "Download as .txt" }).click();
      const file = fs.readFileSync((await (await download).path())!, "utf8");
      for (const code of codes) expect(file).toContain(code);
      await shown.getByRole("button", { name: "Done" }).click();
      await page.getByText("10 recovery codes left.").waitFor();

      // Signed out, then in again: password, then the app's code (the next step's: the first is spent).
      await page.getByRole("button", { name: "Log out" }).click();
      await page.getByRole("button", { name: "Sign in", exact: true }).waitFor();
      await passwordStep(page, email);
      await page.getByLabel("Two-factor code").fill(nextCode(secret));
      await page.getByRole("button", { name: "Verify" }).click();
      await openSecurity(page);

      // A passkey: its name and the password first, then Chromium's authenticator.
      await addVirtualAuthenticator(page);
      await page.getByRole("button", { name: "Add a passkey" }).click();
      const add = page.getByRole("dialog", { name: "Add a passkey" });
      await settled(add);
      await add.getByLabel("Name").fill(`Work laptop ${name}`);
      await add.getByText("Password", { exact: true }).click();
      await add.getByLabel(/^Your password/).fill(PASSWORD);
      const added = page.waitForResponse(
        (res) => res.request().method() === "POST" && new URL(res.url()).pathname === "/api/users/me/passkeys",
      );
      await add.getByRole("button", { name: "Continue" }).click();
      expect((await added).status()).toBe(201);
      await add.waitFor({ state: "detached" });
      const passkeys = page.getByRole("list", { name: "Passkeys" });
      await passkeys.getByText(`Work laptop ${name}`).waitFor();
      await passkeys.getByText(/not used yet/).waitFor();

      // A second device (Firefox, as far as the server can tell) signs in with a recovery code; this one sees it and signs it out.
      const other = await openContext(browser, viewport, touch, FIREFOX);
      await passwordStep(other.page, email);
      await other.page.getByRole("button", { name: "Use a recovery code instead" }).click();
      await other.page.getByLabel("Recovery code").fill(codes[0]);
      await other.page.getByRole("button", { name: "Verify" }).click();
      await other.page.getByRole("button", { name: "Account menu" }).waitFor();

      await page.reload();
      await page.getByRole("heading", { name: "Security", level: 1 }).waitFor();
      await page.getByText("9 recovery codes left.").waitFor();
      const sessionsBox = page.getByRole(name === "phone" ? "list" : "table", { name: "Devices signed in" });
      await expect.poll(() => sessionsBox.getByText("This device").count()).toBe(1);
      if (name === "phone") expect(await page.getByRole("table").count()).toBe(0);
      await expectNoSidewaysScroll(page);
      await expectNoSeriousAxeViolations(page, `security-signed-in-${name}`);
      await screenshot(page, `security-${name}`);
      if (name === "desktop") await docsScreenshot(page, "security");

      // Also listed: the session the sign-up through the API made (the API's helper, not a browser).
      const otherDevice = sessionsBox
        .getByRole(name === "phone" ? "listitem" : "row")
        .filter({ hasText: "Firefox 128" });
      await expect.poll(() => otherDevice.count()).toBe(1);
      const ended = page.waitForResponse(
        (res) => res.request().method() === "DELETE" && /\/api\/users\/me\/sessions/.test(res.url()),
      );
      if (name === "desktop") {
        await otherDevice.getByRole("button", { name: "Sign out Firefox 128 · Linux" }).click();
      } else {
        await page.getByRole("button", { name: "Sign out everywhere else" }).click();
        const confirm = page.getByRole("dialog", { name: "Sign out everywhere else?" });
        await confirm.getByRole("button", { name: "Sign out everywhere else" }).click();
      }
      expect((await ended).status()).toBe(204);
      await expect.poll(() => otherDevice.count()).toBe(0);
      await expect.poll(() => sessionsBox.getByText("This device").count()).toBe(1);

      // The other device's next request is refused: it lands on the sign-in page.
      await other.page.reload();
      await other.page.getByRole("button", { name: "Sign in", exact: true }).waitFor();
      expect(new URL(other.page.url()).pathname).toBe("/login");
      await other.context.close();

      // Signed out, then in again with the passkey alone: no password, no code.
      await page.getByRole("button", { name: "Log out" }).click();
      await page.getByRole("button", { name: "Sign in with a passkey" }).click();
      await openSecurity(page);
      await passkeys.getByText(/last used/).waitFor();
      expect(await passkeys.getByText(/not used yet/).count()).toBe(0);
      await context.close();
    },
  );
});
