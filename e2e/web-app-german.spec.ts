import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import en from "../admin/src/i18n/locales/en.json";
import de from "../admin/src/i18n/locales/de.json";
import { create, getJson, signUpAccount } from "./api";
import { docsScreenshot, settled } from "./browser";
import { DROP_ZONE, dropOn, prepareDrop } from "./fixtures/drop-files";
import { imageFile } from "./fixtures/images";
import { ADMIN, startSendingSetup, type SendingSetup } from "./sending-setup";

/**
 * The web app in German, as a studio in Munich uses it at 1440 × 900: the sign-in page in the
 * browser's language, then the user's own (kept on their record): a project, an upload, publishing
 * and sending to the client. On each screen no sentence of the English catalogue shows, in the text
 * or in what a screen reader says (aria-label, title, alt, placeholder), and Refine's notifications
 * speak German too.
 */
let setup: SendingSetup;

beforeAll(async () => {
  setup = await startSendingSetup();
});
afterAll(() => setup?.stop());

type Catalogue = { [key: string]: string | Catalogue };
const flatten = (catalogue: Catalogue, prefix = ""): Array<[string, string]> =>
  Object.entries(catalogue).flatMap(([key, value]) =>
    typeof value === "string" ? [[prefix + key, value] as [string, string]] : flatten(value, `${prefix}${key}.`),
  );

const german = new Map(flatten(de));
const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * Each English text that German says differently, in any case (badges are shown in capitals). A
 * text of several words is looked for anywhere,
 * its placeholders matching anything and its tags dropped; a single word only as a whole label
 * (a button, a heading, an attribute), since German borrows some ('Download', 'Status').
 */
const ENGLISH = flatten(en)
  .filter(([key, text]) => german.get(key) !== text)
  .map(([key, text]) => {
    const plain = text.replace(/<\/?\w+>/g, "");
    const pattern = plain
      .split(/\{\{\w+\}\}/)
      .map(escape)
      .join(".+?");
    const words = plain
      .replace(/\{\{\w+\}\}/g, " ")
      .trim()
      .split(/\s+/).length;
    return {
      key,
      text,
      pattern:
        words > 1
          ? new RegExp(`(?<![\\p{L}\\p{N}])${pattern}(?![\\p{L}\\p{N}])`, "iu")
          : new RegExp(`^\\s*${pattern}\\s*$`, "imu"),
    };
  });

/** What the screen shows and what a screen reader says of its visible elements, one label a line. */
function shownText(page: Page): Promise<string> {
  return page.evaluate(() => {
    const parts = [document.body.innerText, document.title];
    for (const element of document.querySelectorAll("[aria-label], [title], [alt], [placeholder]")) {
      if (element.getClientRects().length === 0) continue;
      for (const name of ["aria-label", "title", "alt", "placeholder"]) {
        const value = element.getAttribute(name);
        if (value) parts.push(value);
      }
    }
    return parts.join("\n");
  });
}

async function expectNoEnglish(page: Page, screen: string): Promise<void> {
  const text = await shownText(page);
  const english = ENGLISH.filter(({ pattern }) => pattern.test(text)).map(({ key, text }) => `${key}: ${text}`);
  expect(english, `English on the ${screen} screen`).toEqual([]);
  expect(await page.evaluate(() => document.documentElement.lang)).toBe("de");
}

async function setLanguageOf(token: string, language: "en" | "de"): Promise<void> {
  const response = await fetch(`${setup.server.baseUrl}/api/users/me`, {
    method: "PATCH",
    headers: { "Content-Type": "application/json", Authorization: `Bearer ${token}` },
    body: JSON.stringify({ language }),
  });
  expect(response.status).toBe(200);
}

async function germanStudio(browserLocale = "de-DE") {
  const context = await setup.browser.newContext({
    baseURL: setup.server.baseUrl,
    viewport: { width: 1440, height: 900 },
    locale: browserLocale,
  });
  context.setDefaultTimeout(20_000);
  return { context, page: await context.newPage() };
}

async function signInInGerman(page: Page): Promise<void> {
  await page.goto("/login");
  await page.getByText("Bei Ihrem Konto anmelden").waitFor();
  await expectNoEnglish(page, "sign-in");
  await page.getByLabel("E-Mail").fill(ADMIN.email);
  await page.getByLabel("Passwort").fill(ADMIN.password);
  await page.getByRole("button", { name: "Anmelden", exact: true }).click();
}

describe("the web app in German", () => {
  let token: string;
  let projectId: number;

  it("signs in, opens a project, uploads, publishes and sends without an English word", async () => {
    token = await signUpAccount(ADMIN.email, ADMIN.password, "Ada Admin", setup.server.baseUrl);
    await setLanguageOf(token, "de");
    const client = await create<{ id: number }>(token, "clients", { name: "Familie Huber" }, setup.server.baseUrl);
    await create(
      token,
      "contacts",
      { name: "Anna Huber", email: "anna@huber.test", clientId: client.id },
      setup.server.baseUrl,
    );
    ({ id: projectId } = await create<{ id: number }>(
      token,
      "projects",
      { name: "Hochzeit Huber", clientId: client.id },
      setup.server.baseUrl,
    ));
    const { context, page } = await germanStudio();

    await signInInGerman(page);
    await page.getByRole("heading", { name: "Übersicht" }).waitFor();
    await page.getByText("Speicherplatz").waitFor();
    await expectNoEnglish(page, "dashboard");

    await page.getByRole("link", { name: "Alle Projekte" }).click();
    await page.getByRole("main").getByRole("link", { name: "Hochzeit Huber" }).click();
    await page.getByText("Fotos (0)").waitFor();
    await page.getByText("Dieses Projekt enthält noch keine Fotos.").waitFor();
    await expectNoEnglish(page, "project");

    await prepareDrop(page, [await imageFile("erster-tanz.jpg", "jpeg", "#fbc2eb", 640)]);
    await dropOn(page, DROP_ZONE);
    await page.getByText("Fotos (1)").waitFor();
    await expectNoEnglish(page, "upload");

    await page.getByRole("button", { name: "Projekt veröffentlichen" }).click();
    // Refine's notification of the mutation, through the notification provider, in German.
    const notice = page.locator(".mantine-Notification-root").filter({ hasText: "Veröffentlichung gestartet" });
    await notice.waitFor();
    await expect.poll(() => notice.getByRole("button").getAttribute("aria-label")).toBe("Benachrichtigung schließen");
    await page.getByText(/^Veröffentlicht am /).waitFor();
    await expectNoEnglish(page, "published project");

    await page.getByRole("button", { name: "An Kunden senden" }).click();
    const dialog = page.getByRole("dialog", { name: "An Kunden senden" });
    await dialog.getByRole("checkbox", { name: "Anna Huber <anna@huber.test>" }).waitFor();
    await settled(dialog);
    await expectNoEnglish(page, "send dialog");
    await dialog.getByRole("button", { name: "An 1 Empfänger senden" }).click();
    await dialog.getByText("An 1 Empfänger gesendet").waitFor();
    await expectNoEnglish(page, "send result");
    await dialog.getByRole("button", { name: "Fertig" }).click();
    await page.getByText("Gesendet von Ada Admin").waitFor();
    await expect.poll(() => setup.smtp.mails.some((mail) => mail.to.includes("anna@huber.test"))).toBe(true);
    await expectNoEnglish(page, "project after sending");
    await page.evaluate(() => window.scrollTo(0, 0));
    await docsScreenshot(page, "web-app-de", { fullPage: false });
    await context.close();
  });

  it("keeps the language chosen in the user menu on the user's record, across a reload and a new browser", async () => {
    const { context, page } = await germanStudio();
    await signInInGerman(page);
    await page.getByRole("heading", { name: "Übersicht" }).waitFor();

    await page.getByRole("button", { name: "Kontomenü" }).click();
    await page.getByText("Sprache", { exact: true }).waitFor();
    await page.getByRole("menuitem", { name: "English" }).click();
    await page.getByRole("heading", { name: "Dashboard Overview" }).waitFor();
    expect(await page.evaluate(() => document.documentElement.lang)).toBe("en");
    await expect
      .poll(async () => (await getJson<{ language: string }>(token, "users/me", setup.server.baseUrl)).language)
      .toBe("en");
    await page.reload();
    await page.getByRole("heading", { name: "Dashboard Overview" }).waitFor();

    // A browser in English that has never seen this user: English until signed in, then the user's.
    await page.getByRole("button", { name: "Account menu" }).click();
    await page.getByText("Language", { exact: true }).waitFor();
    await page.getByRole("menuitem", { name: "Deutsch" }).click();
    await page.getByRole("heading", { name: "Übersicht" }).waitFor();
    await expect
      .poll(async () => (await getJson<{ language: string }>(token, "users/me", setup.server.baseUrl)).language)
      .toBe("de");
    await context.close();

    const elsewhere = await germanStudio("en-US");
    await elsewhere.page.goto("/login");
    await elsewhere.page.getByText("Sign in to your account").waitFor();
    await elsewhere.page.getByLabel("Email").fill(ADMIN.email);
    await elsewhere.page.getByLabel("Password").fill(ADMIN.password);
    await elsewhere.page.getByRole("button", { name: "Sign in", exact: true }).click();
    await elsewhere.page.getByRole("heading", { name: "Übersicht" }).waitFor();
    await elsewhere.page.goto(`/projects/${projectId}`);
    await elsewhere.page.getByText("Fotos (1)").waitFor();
    await expectNoEnglish(elsewhere.page, "project in a new browser");
    await elsewhere.context.close();
  });
});
