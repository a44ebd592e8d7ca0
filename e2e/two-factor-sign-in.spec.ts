import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { callJson } from "./api";
import { expectNoSeriousAxeViolations } from "./axe";
import { launchBrowser, SIZES, screenshot, settled, expectNoSidewaysScroll } from "./browser";
import { addVirtualAuthenticator } from "./fixtures/virtual-authenticator";
import { startFreshServer, type FreshServer } from "./fresh-server";
import { codeAt, nextCode, wrongCodeFor } from "./fixtures/totp";

/**
 * Signing in to the web app with two-factor: a code, a recovery code, a wrong code, a passkey
 * (Chromium's virtual authenticator), the Users screen's reset, and the Studio's 'Require two-factor
 * sign-in' leading a user without it to enrolment. The page is at http://localhost:<port> (a secure
 * context, so passkeys are offered); the test's own API calls go to 127.0.0.1.
 */

const BROWSER_BUNDLE = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  "../node_modules/@simplewebauthn/browser/dist/bundle/index.umd.min.js",
);
const ENROLMENT = "/account/security";

interface Session {
  accessToken: string;
  user: { uid: string; email: string };
}

describe("two-factor sign-in in the web app", () => {
  let browser: Browser;
  let server: FreshServer;
  let pageOrigin: string;
  let admin: Session;
  const contexts: BrowserContext[] = [];

  const call = (method: string, route: string, body?: object, token?: string) =>
    callJson(method, route, body, token, server.baseUrl);

  /** A signed-up account approved by the admin. */
  async function staff(email: string, password: string): Promise<Session> {
    const signedUp = await call("POST", "/api/auth/signup", { email, password });
    expect(signedUp.status, JSON.stringify(signedUp.body)).toBe(201);
    const approved = await call(
      "PATCH",
      `/api/users/${signedUp.body.user.uid}`,
      { hasAccess: true },
      admin.accessToken,
    );
    expect(approved.status, JSON.stringify(approved.body)).toBe(200);
    return signedUp.body as Session;
  }

  /**
   * Turns two-factor on through the API, confirmed with the current step's code: the server still
   * takes it a step later. (The previous step's was refused once the answer came after the next
   * step had begun.) A step is taken once, so sign-ins after it type the next step's code.
   */
  async function enrol(session: Session): Promise<{ secret: string; recoveryCodes: string[] }> {
    const started = await call("POST", "/api/users/me/two-factor", undefined, session.accessToken);
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    const secret = started.body.secret as string;
    const confirmed = await call(
      "POST",
      "/api/users/me/two-factor/confirm",
      { code: codeAt(secret) },
      session.accessToken,
    );
    expect(confirmed.status, JSON.stringify(confirmed.body)).toBe(200);
    return { secret, recoveryCodes: confirmed.body.recoveryCodes as string[] };
  }

  async function openPage(size: (typeof SIZES)[number] = SIZES[0]): Promise<Page> {
    // bypassCSP: axe and the WebAuthn bundle go in as injected scripts.
    const context = await browser.newContext({
      baseURL: pageOrigin,
      viewport: size.viewport,
      hasTouch: size.touch,
      isMobile: size.touch,
      bypassCSP: true,
    });
    context.setDefaultTimeout(15_000);
    contexts.push(context);
    return context.newPage();
  }

  async function password(page: Page, email: string, secret: string) {
    await page.goto("/login");
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password").fill(secret);
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
  }

  const dashboard = (page: Page) => page.getByRole("heading", { name: "Dashboard Overview" }).waitFor();
  const codeInput = (page: Page) => page.getByRole("textbox", { name: "Two-factor code" });

  beforeAll(async () => {
    // Four judged failures per account and address a minute: the budget case spends them.
    [browser, server] = await Promise.all([launchBrowser(), startFreshServer(() => ({ RATE_LIMIT_PER_ACCOUNT: "4" }))]);
    pageOrigin = server.baseUrl.replace("127.0.0.1", "localhost");
    const first = await call("POST", "/api/auth/signup", { email: "ada@studio.test", password: "ada-password-1" });
    expect(first.status).toBe(201);
    admin = first.body as Session;
  });

  afterAll(async () => {
    for (const context of contexts) await context.close().catch(() => undefined);
    await browser?.close();
    await server?.stop();
  });

  it("signs in with a code after the password, then with a recovery code; a wrong code says so", async () => {
    const tess = await staff("tess@studio.test", "tess-password-1");
    const { secret, recoveryCodes } = await enrol(tess);

    const page = await openPage();
    await password(page, "tess@studio.test", "tess-password-1");
    await codeInput(page).waitFor();
    await expect(codeInput(page).getAttribute("autocomplete")).resolves.toBe("one-time-code");
    await expect(codeInput(page).getAttribute("inputmode")).resolves.toBe("numeric");
    // No session yet: the password alone signed nothing in.
    await expect(page.evaluate(() => Object.keys(localStorage).join(","))).resolves.not.toMatch(/session/i);
    await expectNoSeriousAxeViolations(page, "two-factor code step");
    await screenshot(page, "two-factor-code-step-desktop");

    const wrong = wrongCodeFor(secret);
    await codeInput(page).fill(wrong);
    await page.getByRole("button", { name: "Verify" }).click();
    await page.getByRole("alert").filter({ hasText: "That code did not work" }).waitFor();
    // Too short: refused in the page before anything is sent.
    await codeInput(page).fill("123");
    await page.getByRole("button", { name: "Verify" }).click();
    await page.getByText("Enter the 6 digits your authenticator app shows").waitFor();

    await codeInput(page).fill(nextCode(secret));
    await page.getByRole("button", { name: "Verify" }).click();
    await dashboard(page);

    const again = await openPage();
    await password(again, "tess@studio.test", "tess-password-1");
    await codeInput(again).waitFor();
    await again.getByRole("button", { name: "Use a recovery code instead" }).click();
    const recovery = again.getByRole("textbox", { name: "Recovery code" });
    await recovery.fill(recoveryCodes[0]);
    await again.getByRole("button", { name: "Verify" }).click();
    await dashboard(again);

    // The same recovery code does not work twice.
    const third = await openPage();
    await password(third, "tess@studio.test", "tess-password-1");
    await third.getByRole("button", { name: "Use a recovery code instead" }).click();
    await third.getByRole("textbox", { name: "Recovery code" }).fill(recoveryCodes[0]);
    await third.getByRole("button", { name: "Verify" }).click();
    await third.getByRole("alert").filter({ hasText: "That code did not work" }).waitFor();
    await expectNoSeriousAxeViolations(third, "recovery code refused");
  });

  it("says plainly when wrong codes have spent the sign-in budget", async () => {
    const bert = await staff("bert@studio.test", "bert-password-1");
    const { secret } = await enrol(bert);
    const page = await openPage();
    await password(page, "bert@studio.test", "bert-password-1");
    const wrong = wrongCodeFor(secret);
    for (let attempt = 1; attempt <= 4; attempt++) {
      await codeInput(page).fill(wrong);
      await page.getByRole("button", { name: "Verify" }).click();
      await page.getByRole("alert").filter({ hasText: "That code did not work" }).waitFor();
      await codeInput(page).fill("");
    }
    await codeInput(page).fill(nextCode(secret));
    await page.getByRole("button", { name: "Verify" }).click();
    await page.getByRole("alert").filter({ hasText: "Too many sign-in attempts" }).waitFor();
  });

  it("shows the code step whole on a phone", async () => {
    const phil = await staff("phil@studio.test", "phil-password-1");
    await enrol(phil);
    const page = await openPage(SIZES[1]);
    await password(page, "phil@studio.test", "phil-password-1");
    await codeInput(page).waitFor();
    await expectNoSidewaysScroll(page);
    const verify = await page.getByRole("button", { name: "Verify" }).boundingBox();
    expect(verify && verify.x >= 0 && verify.x + verify.width <= 390).toBe(true);
    expect(verify && verify.height >= 36).toBe(true);
    await expectNoSeriousAxeViolations(page, "two-factor code step (phone)");
    await screenshot(page, "two-factor-code-step-phone");
  });

  it("signs in with a passkey alone, made on Chromium's virtual authenticator", async () => {
    const pia = await staff("pia@studio.test", "pia-password-1");
    const page = await openPage();
    await page.goto("/api/auth/config");
    await page.addScriptTag({ path: BROWSER_BUNDLE });
    await addVirtualAuthenticator(page);
    // Registered through the API from the page's own origin (the passkey is for "localhost").
    const added = await page.evaluate(
      async ({ token, proof }) => {
        const headers = { "Content-Type": "application/json", Authorization: `Bearer ${token}` };
        const options = await fetch("/api/users/me/passkeys/registration-options", {
          method: "POST",
          headers,
          body: JSON.stringify(proof),
        }).then((r) => r.json());
        const browserLib = (
          window as unknown as { SimpleWebAuthnBrowser: { startRegistration(o: object): Promise<unknown> } }
        ).SimpleWebAuthnBrowser;
        const response = await browserLib.startRegistration({ optionsJSON: options });
        const res = await fetch("/api/users/me/passkeys", {
          method: "POST",
          headers,
          body: JSON.stringify({ name: "Virtual", response }),
        });
        return res.status;
      },
      { token: pia.accessToken, proof: { password: "pia-password-1" } },
    );
    expect(added).toBe(201);

    await page.goto("/login");
    await page.getByRole("button", { name: "Sign in with a passkey" }).click();
    await dashboard(page);
    const me = await page.evaluate(() => fetch("/api/auth/config").then((r) => r.status));
    expect(me).toBe(200);
  });

  it("lets the admin reset a user's two-factor on the Users screen, and leads everyone without it to enrolment once required", async () => {
    await enrol(await staff("rita@studio.test", "rita-password-1"));
    const adminPage = await openPage();
    await password(adminPage, "ada@studio.test", "ada-password-1");
    await dashboard(adminPage);
    await adminPage.goto("/users");
    const row = (email: string) => adminPage.getByRole("row").filter({ hasText: email });
    await row("rita@studio.test").waitFor();
    await expect(adminPage.getByRole("columnheader", { name: "Two-factor" }).count()).resolves.toBe(1);
    await row("rita@studio.test").getByText("On", { exact: true }).waitFor();
    // Never on one's own row.
    await expect(row("ada@studio.test").getByRole("button", { name: "Reset two-factor" }).count()).resolves.toBe(0);
    await row("rita@studio.test").getByRole("button", { name: "Reset two-factor" }).click();
    const dialog = adminPage.getByRole("dialog", { name: "Reset two-factor sign-in" });
    await settled(dialog);
    await dialog.getByText("rita@studio.test").waitFor();
    await expectNoSeriousAxeViolations(adminPage, "reset two-factor dialog");
    await dialog.getByRole("button", { name: "Reset two-factor" }).click();
    await dialog.waitFor({ state: "hidden" });
    await row("rita@studio.test").getByText("Off", { exact: true }).waitFor();
    await expect(row("rita@studio.test").getByRole("button", { name: "Reset two-factor" }).count()).resolves.toBe(0);
    // Rita now signs in with the password alone.
    const ritaPage = await openPage();
    await password(ritaPage, "rita@studio.test", "rita-password-1");
    await dashboard(ritaPage);

    const umaSession = await staff("uma@studio.test", "uma-password-1");
    await adminPage.goto("/studio");
    const required = adminPage.getByRole("checkbox", { name: "Require two-factor sign-in for everyone" });
    await required.check();
    await adminPage.getByRole("button", { name: "Save studio settings" }).click();
    await adminPage.getByText("Studio settings saved").first().waitFor();
    const studio = await call("GET", "/api/users/me/two-factor", undefined, admin.accessToken);
    expect(studio.body.required).toBe(true);

    // A user without two-factor lands on enrolment, and every other screen leads back there.
    const uma = await openPage();
    await password(uma, "uma@studio.test", "uma-password-1");
    await uma.waitForURL((url) => url.pathname === ENROLMENT);
    await uma.goto("/clients/all");
    await uma.waitForURL((url) => url.pathname === ENROLMENT);
    await expect(uma.getByRole("heading", { name: "Dashboard Overview" }).count()).resolves.toBe(0);
    // Once enrolled (here through the API), the next screen opens.
    await enrol(umaSession);
    await uma.getByRole("link", { name: "All Clients" }).first().click();
    await uma.waitForURL((url) => url.pathname === "/clients/all");
    await uma.getByRole("heading", { name: "Clients" }).first().waitFor();
    // The admin, without it too, is led there at the next screen (the API's 403 included).
    await adminPage.goto("/projects/all");
    await adminPage.waitForURL((url) => url.pathname === ENROLMENT);
  });
});
