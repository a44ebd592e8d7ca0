import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { chromium, type Browser, type BrowserContext, type Locator, type Page, type WebSocket } from "playwright-core";
import { expect, inject } from "vitest";

const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const screenshotDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "screenshots");

/** The two sizes journeys check: a desktop and a phone (touch). */
export const SIZES = [
  { name: "desktop", viewport: { width: 1440, height: 900 }, touch: false },
  { name: "phone", viewport: { width: 390, height: 844 }, touch: true },
] as const;

/** The page never scrolls sideways: neither the document nor its body is wider than the window. */
export async function expectNoSidewaysScroll(page: Page, what = "the page"): Promise<void> {
  const widths = await page.evaluate(() => ({
    widest: Math.max(document.documentElement.scrollWidth, document.body.scrollWidth),
    window: window.innerWidth,
  }));
  expect(widths.widest, `${what}: width`).toBeLessThanOrEqual(widths.window);
}

/** Debian's Chromium, headless; `extraArgs` for journeys that need more (a host mapping, a test certificate). */
export function launchBrowser(extraArgs: string[] = []): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      "--no-sandbox",
      "--disable-background-networking",
      "--disable-gpu",
      "--disable-component-update",
      "--disable-sync",
      "--no-first-run",
      ...extraArgs,
    ],
  });
}

/** A fresh profile (no stored session) against the server the global setup started. */
export async function newPage(browser: Browser): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ baseURL: inject("baseUrl"), viewport: { width: 1366, height: 860 } });
  context.setDefaultTimeout(15_000);
  const page = await context.newPage();
  return { context, page };
}

/** The whole page by default; `fullPage: false` for a screen-sized dialog, which covers only the window. */
export async function screenshot(page: Page, name: string, { fullPage = true } = {}): Promise<void> {
  fs.mkdirSync(screenshotDir, { recursive: true });
  await page.screenshot({ path: path.join(screenshotDir, `${name}.png`), fullPage });
}

const docsScreenshotDir = path.resolve(screenshotDir, "../../docs/screenshots");

/** A screenshot that the manual (README.md, docs/) shows as well: written to docs/screenshots too. */
export async function docsScreenshot(page: Page, name: string, options: { fullPage?: boolean } = {}): Promise<void> {
  await screenshot(page, name, options);
  fs.mkdirSync(docsScreenshotDir, { recursive: true });
  fs.copyFileSync(path.join(screenshotDir, `${name}.png`), path.join(docsScreenshotDir, `${name}.png`));
}

export async function signIn(page: Page, email: string, password: string): Promise<void> {
  await page.goto("/login");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
}

/** Signs the admin in (the global server's, or the one given) and waits for the dashboard. */
export async function signInAsAdmin(
  page: Page,
  email = inject("adminEmail"),
  password = inject("adminPassword"),
): Promise<void> {
  await signIn(page, email, password);
  await page.getByRole("heading", { name: "Dashboard Overview" }).waitFor();
}

/**
 * The frames the server has sent on the page's latest /events socket: emptied when a new one opens,
 * so a frame the page before a navigation got late (its subscription confirmed) is never read as
 * the new page's.
 */
export function liveFrames(page: Page): string[] {
  const frames: string[] = [];
  let latest: WebSocket | undefined;
  page.on("websocket", (socket) => {
    if (new URL(socket.url()).pathname !== "/events") return;
    latest = socket;
    frames.length = 0;
    socket.on("framereceived", ({ payload }) => void (socket === latest && frames.push(String(payload))));
  });
  return frames;
}

/**
 * Resolves once the server has confirmed a live subscription to `resource` in `frames`: a change
 * made before it never reaches the page, which would then wait for it in vain.
 */
export async function subscribedTo(frames: string[], resource: string): Promise<void> {
  const confirms = (frame: string) => {
    const { event, data } = JSON.parse(frame);
    return event === "subscribed" && Array.isArray(data?.resources) && data.resources.includes(resource);
  };
  await expect.poll(() => frames.some(confirms)).toBe(true);
}

/** Waits for a dialog's opening transition to end, so a screenshot shows it as a person sees it. */
export async function settled(dialog: Locator): Promise<void> {
  await expect.poll(() => dialog.evaluate((node) => getComputedStyle(node).opacity)).toBe("1");
}
