import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { Browser, BrowserContext, Locator, Page } from "playwright-core";
import en from "../admin/src/i18n/locales/en.json";
import de from "../admin/src/i18n/locales/de.json";
import { adminToken, callJson, getJson, putJson, signUpAccount } from "./api";
import { expectNoSeriousAxeViolations } from "./axe";
import { launchBrowser, settled, signIn, SIZES, expectNoSidewaysScroll } from "./browser";
import { codeAt, nextCode, wrongCodeFor } from "./fixtures/totp";
import { addVirtualAuthenticator } from "./fixtures/virtual-authenticator";

/**
 * The Security page's dialogs a person uses after turning two-factor on: 'Turn off' (with a code,
 * with the password), new recovery codes (the old ones end), renaming a passkey, and the server's
 * refusals said in German when the user's language is German. The pages are at
 * http://localhost:<port> (a secure context, so passkeys are offered); the test's own calls go to
 * 127.0.0.1.
 */

const PASSWORD = "dialogs-Staff-password-1";
const TWO_FACTOR = "/api/users/me/two-factor";
const localBase = () => inject("baseUrl").replace("127.0.0.1", "localhost");
type Size = (typeof SIZES)[number];

/** A staff account signed up and approved through the API; answers its access token. */
async function approvedStaff(email: string, language: "en" | "de" = "en"): Promise<string> {
  const token = await signUpAccount(email, PASSWORD, "Dana Dialogs");
  const admin = await adminToken();
  const users = await getJson<Array<{ uid: string; email: string }>>(admin, "users?_start=0&_end=500");
  const uid = users.find((user) => user.email === email)?.uid;
  if (!uid) throw new Error("The staff account is not in the users list");
  expect((await putJson(admin, `users/${uid}`, { hasAccess: true })).status).toBe(200);
  expect((await callJson("PATCH", "/api/users/me", { language }, token)).status).toBe(200);
  return token;
}

/** Turns two-factor on through the API with the current step's code; answers the secret and recovery codes. */
async function enrolThroughApi(token: string) {
  const started = await callJson("POST", "/api/users/me/two-factor", undefined, token);
  expect(started.status, JSON.stringify(started.body)).toBe(200);
  const secret = started.body.secret as string;
  const confirmed = await callJson("POST", "/api/users/me/two-factor/confirm", { code: codeAt(secret) }, token);
  expect(confirmed.status, JSON.stringify(confirmed.body)).toBe(200);
  return { secret, recoveryCodes: confirmed.body.recoveryCodes as string[] };
}

/** Whether a sign-in with the password asks for the second step (through the API). */
async function signInAsksForCode(email: string): Promise<boolean> {
  const login = await callJson("POST", "/api/auth/login", { email, password: PASSWORD });
  expect(login.status, JSON.stringify(login.body)).toBe(200);
  return login.body.twoFactorRequired === true;
}

/** The second step of a sign-in through the API with a recovery code: its status. */
async function signInWithRecoveryCode(email: string, recoveryCode: string): Promise<number> {
  const login = await callJson("POST", "/api/auth/login", { email, password: PASSWORD });
  expect(login.body.twoFactorRequired).toBe(true);
  return (await callJson("POST", "/api/auth/login/two-factor", { challenge: login.body.challenge, recoveryCode }))
    .status;
}

/** The DELETE requests the page sends to turn two-factor off, counted as the browser sends them. */
function turnOffRequests(page: Page): { count: () => number } {
  let count = 0;
  page.on("request", (request) => {
    if (request.method() === "DELETE" && new URL(request.url()).pathname === TWO_FACTOR) count++;
  });
  return { count: () => count };
}

/** A dialog checked as a person meets it: opened, no serious axe violation, as wide as the screen at most. */
async function checkDialog(page: Page, dialog: Locator, size: Size, screen: string) {
  await settled(dialog);
  await expectNoSeriousAxeViolations(page, `${screen} (${size.name})`);
  await expectNoSidewaysScroll(page);
}

describe("the Security page's dialogs", () => {
  let browser: Browser;
  const contexts: BrowserContext[] = [];

  async function openPage(size: Size, locale = "en-US"): Promise<Page> {
    // bypassCSP: axe-core goes in as an injected script.
    const context = await browser.newContext({
      baseURL: localBase(),
      viewport: size.viewport,
      hasTouch: size.touch,
      bypassCSP: true,
      locale,
    });
    context.setDefaultTimeout(15_000);
    contexts.push(context);
    return context.newPage();
  }

  /** Signed in with the password alone (two-factor still off), on the Security page. */
  async function securityPage(size: Size, email: string, heading = en.security.title): Promise<Page> {
    const page = await openPage(size);
    await signIn(page, email, PASSWORD);
    await page.getByRole("button", { name: /^(Account menu|Kontomenü)$/ }).waitFor();
    await page.goto("/account/security");
    await page.getByRole("heading", { name: heading, level: 1 }).waitFor();
    return page;
  }

  const twoFactorBadge = (page: Page, state: string) =>
    page.getByRole("region", { name: en.security.twoFactorTitle }).getByText(state, { exact: true });

  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    for (const context of contexts) await context.close().catch(() => undefined);
    await browser?.close();
  });

  it.each(SIZES)(
    "turns two-factor off with a code (a wrong one first), on again, and off with the password ($name)",
    async (size) => {
      const email = `dialogs-off-${size.name}-${Date.now()}@photodrop.test`;
      const token = await approvedStaff(email);
      const page = await securityPage(size, email);
      const requests = turnOffRequests(page);
      const { secret } = await enrolThroughApi(token);
      await page.reload();
      await twoFactorBadge(page, en.security.on).waitFor();
      expect(await signInAsksForCode(email)).toBe(true);

      // A wrong code: the server refuses it (400), the dialog stays open and says why under the field.
      await page.getByRole("button", { name: en.security.turnOff, exact: true }).click();
      const dialog = page.getByRole("dialog", { name: en.security.turnOffTitle });
      await checkDialog(page, dialog, size, "turn-off dialog");
      const code = dialog.getByLabel(en.security.codeFromApp);
      await code.fill(wrongCodeFor(secret));
      const refused = page.waitForResponse(
        (res) => res.request().method() === "DELETE" && res.url().endsWith(TWO_FACTOR),
      );
      await dialog.getByRole("button", { name: en.security.turnOff, exact: true }).click();
      expect((await refused).status()).toBe(400);
      await dialog.getByText(en.security.wrongCode).waitFor();
      await expect(code.getAttribute("aria-invalid")).resolves.toBe("true");
      await checkDialog(page, dialog, size, "turn-off dialog, wrong code");
      expect(requests.count()).toBe(1);

      // The right code, sent with Enter: the dialog closes, the page says Off, a sign-in asks for no code.
      await code.fill(nextCode(secret));
      await code.press("Enter");
      await dialog.waitFor({ state: "detached" });
      await twoFactorBadge(page, en.security.off).waitFor();
      await page.getByRole("button", { name: en.security.turnOnButton }).waitFor();
      expect(requests.count()).toBe(2);
      expect(await signInAsksForCode(email)).toBe(false);

      // On again through the enrol dialog, with a new key.
      await page.getByRole("button", { name: en.security.turnOnButton }).click();
      const enrol = page.getByRole("dialog", { name: en.security.turnOnTitle });
      await enrol.getByRole("img", { name: en.security.qrLabel }).waitFor();
      await checkDialog(page, enrol, size, "enrol dialog");
      const newSecret = (await enrol.getByLabel(en.security.secret).textContent())!.replace(/\s+/g, "");
      expect(newSecret).not.toBe(secret);
      await enrol.getByLabel(en.security.codeFromApp).fill(codeAt(newSecret));
      await enrol.getByRole("button", { name: en.security.turnOn, exact: true }).click();
      const shown = page.getByRole("dialog", { name: en.security.yourRecoveryCodes });
      await expect.poll(() => shown.getByRole("listitem").count()).toBe(10);
      await shown.getByRole("button", { name: en.security.done }).click();
      await twoFactorBadge(page, en.security.on).waitFor();
      expect(await signInAsksForCode(email)).toBe(true);

      // Off with the password: a wrong one first, then the right one by a double click, sent once.
      await page.getByRole("button", { name: en.security.turnOff, exact: true }).click();
      await settled(dialog);
      await dialog.getByText(en.security.withPassword, { exact: true }).click();
      const password = dialog.getByLabel(new RegExp(`^${en.security.yourPassword}`));
      await password.fill("not-the-password-1");
      await password.press("Enter");
      await dialog.getByText(en.security.wrongPassword).waitFor();
      expect(requests.count()).toBe(3);
      await checkDialog(page, dialog, size, "turn-off dialog, wrong password");
      await password.fill(PASSWORD);
      const accepted = page.waitForResponse(
        (res) => res.request().method() === "DELETE" && res.url().endsWith(TWO_FACTOR),
      );
      await dialog.getByRole("button", { name: en.security.turnOff, exact: true }).dblclick();
      expect((await accepted).status()).toBe(204);
      await dialog.waitFor({ state: "detached" });
      await twoFactorBadge(page, en.security.off).waitFor();
      expect(requests.count()).toBe(4);
      expect(await signInAsksForCode(email)).toBe(false);
    },
  );

  it.each(SIZES)("makes new recovery codes, which end the old ones ($name)", async (size) => {
    const email = `dialogs-codes-${size.name}-${Date.now()}@photodrop.test`;
    const token = await approvedStaff(email);
    const page = await securityPage(size, email);
    const { recoveryCodes: oldCodes } = await enrolThroughApi(token);
    await page.reload();
    await page.getByText("10 recovery codes left.").waitFor();

    await page.getByRole("button", { name: en.security.newRecoveryCodes }).click();
    const confirm = page.getByRole("dialog", { name: en.security.newRecoveryCodesTitle });
    await checkDialog(page, confirm, size, "new recovery codes dialog");
    const made = page.waitForResponse(
      (res) => res.request().method() === "POST" && res.url().endsWith(`${TWO_FACTOR}/recovery-codes`),
    );
    await confirm.getByRole("button", { name: en.security.makeNewCodes }).click();
    expect((await made).status()).toBe(200);
    const shown = page.getByRole("dialog", { name: en.security.yourRecoveryCodes });
    await expect.poll(() => shown.getByRole("listitem").count()).toBe(10);
    const newCodes = await shown.getByRole("listitem").allTextContents();
    expect(newCodes.filter((code) => oldCodes.includes(code))).toEqual([]);
    await checkDialog(page, shown, size, "new recovery codes shown");
    await shown.getByRole("button", { name: en.security.done }).click();
    await shown.waitFor({ state: "detached" });

    expect(await signInWithRecoveryCode(email, oldCodes[0])).toBe(401);
    expect(await signInWithRecoveryCode(email, newCodes[0])).toBe(200);
    await page.reload();
    await page.getByText("9 recovery codes left.").waitFor();
  });

  it.each(SIZES)(
    "renames a passkey; a blank name is held back and a long one gets the server's word ($name)",
    async (size) => {
      const email = `dialogs-passkey-${size.name}-${Date.now()}@photodrop.test`;
      await approvedStaff(email);
      const page = await securityPage(size, email);
      await addVirtualAuthenticator(page);
      await page.getByRole("button", { name: en.security.addPasskey }).click();
      const add = page.getByRole("dialog", { name: en.security.addPasskeyTitle });
      await settled(add);
      await add.getByLabel(en.security.passkeyName).fill("Laptop");
      await add.getByLabel(new RegExp(`^${en.security.yourPassword}`)).fill(PASSWORD);
      await add.getByRole("button", { name: en.security.continue }).click();
      await add.waitFor({ state: "detached" });
      const passkeys = page.getByRole("list", { name: en.security.passkeysTitle });
      await passkeys.getByText("Laptop", { exact: true }).waitFor();

      await passkeys.getByRole("button", { name: en.security.rename }).click();
      const rename = page.getByRole("dialog", { name: en.security.renamePasskeyTitle });
      await checkDialog(page, rename, size, "rename passkey dialog");
      const name = rename.getByLabel(en.security.passkeyName);
      const save = rename.getByRole("button", { name: "Save" });
      let renames = 0;
      page.on("request", (request) => {
        if (request.method() === "PATCH" && new URL(request.url()).pathname.startsWith("/api/users/me/passkeys/"))
          renames++;
      });

      // Blank (spaces only): the page holds Save back, nothing is sent.
      await name.fill("   ");
      await expect(save.isDisabled()).resolves.toBe(true);
      await name.press("Enter");

      // Too long: the field takes the server's 100 characters; past them (its cap lifted, as a script or
      // an older browser may) the server's message shows under the field and the dialog stays open.
      await name.fill("x".repeat(120));
      await expect(name.inputValue()).resolves.toHaveLength(100);
      await name.evaluate((input) => input.removeAttribute("maxlength"));
      await name.fill("x".repeat(101));
      const refused = page.waitForResponse((res) => res.request().method() === "PATCH");
      await save.click();
      expect((await refused).status()).toBe(400);
      await rename.getByText("Name must be at most 100 characters").waitFor();
      await expect(name.getAttribute("aria-invalid")).resolves.toBe("true");
      await checkDialog(page, rename, size, "rename passkey dialog, name too long");
      expect(renames).toBe(1);

      await name.fill("Work laptop");
      await name.press("Enter");
      await rename.waitFor({ state: "detached" });
      await passkeys.getByText("Work laptop", { exact: true }).waitFor();
      expect(await passkeys.getByText("Laptop", { exact: true }).count()).toBe(0);
      expect(renames).toBe(2);
    },
  );

  it.each(SIZES)("says the server's refusals in German to a German user ($name)", async (size) => {
    const email = `dialogs-de-${size.name}-${Date.now()}@photodrop.test`;
    const token = await approvedStaff(email, "de");
    const { secret } = await enrolThroughApi(token);
    const page = await openPage(size, "de-DE");
    // The English the server sends (word for word the catalogue's server.*), and the web app's own for a wrong code.
    const english = [
      ...Object.entries(en.server).flatMap(([key, text]) =>
        typeof text === "string" && !text.includes("{{") && text !== de.server[key as keyof typeof de.server]
          ? [text]
          : [],
      ),
      en.security.wrongCode,
      en.security.wrongPassword,
    ];
    const expectNoEnglish = async (where: Locator) => {
      const text = await where.innerText();
      expect(english.filter((sentence) => text.includes(sentence))).toEqual([]);
    };

    // A wrong password at sign-in (the page in the browser's German).
    await page.goto("/login");
    await page.getByLabel(de.auth.email).fill(email);
    await page.getByLabel(de.auth.password).fill("not-the-password-1");
    await page.getByRole("button", { name: de.auth.signIn, exact: true }).click();
    await page.getByText(de.server.invalidLogin).waitFor();
    await expectNoEnglish(page.locator("body"));

    // Signed in with the password and the next step's code; the user's German follows.
    await page.getByLabel(de.auth.password).fill(PASSWORD);
    await page.getByRole("button", { name: de.auth.signIn, exact: true }).click();
    await page.getByRole("textbox", { name: de.auth.twoFactorCode }).fill(nextCode(secret));
    await page.getByRole("button", { name: de.auth.verify }).click();
    await page.getByRole("button", { name: "Kontomenü" }).waitFor();
    await page.goto("/account/security");
    await page.getByRole("heading", { name: de.security.title, level: 1 }).waitFor();

    // A wrong code in the turn-off dialog.
    await page.getByRole("button", { name: de.security.turnOff, exact: true }).click();
    const dialog = page.getByRole("dialog", { name: de.security.turnOffTitle });
    await settled(dialog);
    await dialog.getByLabel(de.security.codeFromApp).fill(wrongCodeFor(secret));
    await dialog.getByRole("button", { name: de.security.turnOff, exact: true }).click();
    await dialog.getByText(de.security.wrongCode).waitFor();
    await expectNoEnglish(dialog);
    await checkDialog(page, dialog, size, "turn-off dialog in German");

    // Turned off elsewhere meanwhile: the server's own message (409) in the dialog, in German.
    expect((await callJson("DELETE", "/api/users/me/two-factor", { password: PASSWORD }, token)).status).toBe(204);
    await dialog.getByText(de.security.withPassword, { exact: true }).click();
    await dialog.getByLabel(new RegExp(`^${de.security.yourPassword}`)).fill(PASSWORD);
    await dialog.getByRole("button", { name: de.security.turnOff, exact: true }).click();
    await dialog.getByRole("alert").getByText(de.server.twoFactorNotOn).waitFor();
    await expectNoEnglish(dialog);
    await checkDialog(page, dialog, size, "turn-off dialog in German, a server message");
  });
});
