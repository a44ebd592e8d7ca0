import fs from "node:fs";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { expect } from "vitest";
import { readZip } from "../server/publish/test-fixtures";
import { create, logIn } from "./api";
import { signIn } from "./browser";
import { loadedThumbnails } from "./fixtures/gallery";
import { imageFile, type FilePayload } from "./fixtures/images";

/** Chromium resolves this name to the test's loopback server: an ordinary, non-secure origin to the browser. */
export const LAN_NAME = "studio.lan";
export const MAP_LAN_NAME = `--host-resolver-rules=MAP ${LAN_NAME} 127.0.0.1`;

/** The same server under the LAN name, e.g. http://127.0.0.1:4000 → http://studio.lan:4000. */
export const atLanName = (url: string) => url.replace("127.0.0.1", LAN_NAME);

export interface Studio {
  /** Where the browser opens the app (a LAN name over HTTP, or the TLS proxy). */
  baseUrl: string;
  /** Where the test arranges data through the API, straight to the server. */
  apiUrl: string;
  email: string;
  password: string;
  /** Called with every browser context the journey opens, before any page loads (to watch its traffic). */
  watch?: (context: BrowserContext) => void;
  /**
   * How many answers to the clients list (by name) a slow link has held back so far, where there is
   * one: the live change is then made while the page's list is read but not yet delivered.
   */
  heldClientLists?: () => number;
}

/** Every response's headers in the contexts it watches (read as they arrive: a closed context has none to give). */
export function headerRecorder(origin: string) {
  const pending: Array<Promise<{ url: string; headers: Record<string, string> } | undefined>> = [];
  return {
    watch(context: BrowserContext) {
      context.on("response", (res) => {
        if (!res.url().startsWith(origin)) return;
        pending.push(
          res.allHeaders().then(
            (headers) => ({ url: res.url(), headers }),
            () => undefined,
          ),
        );
      });
    },
    async recorded() {
      return (await Promise.all(pending)).filter((r) => r !== undefined);
    },
  };
}

/**
 * Errors and warnings a page logs to its console, or throws: a blank or half-working page shows
 * them first, and so does a header the browser ignores on this kind of origin.
 */
export function consoleErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on("console", (message) => {
    // The journey leaves a page (goto) while its live socket may still be connecting.
    if (/WebSocket is closed before the connection is established/.test(message.text())) return;
    if (["error", "warning"].includes(message.type())) errors.push(message.text());
  });
  page.on("pageerror", (error) => errors.push(error.message));
  return errors;
}

async function openContext(browser: Browser, studio: Studio, viewport = { width: 1366, height: 860 }) {
  const context = await browser.newContext({ baseURL: studio.baseUrl, viewport, acceptDownloads: true });
  context.setDefaultTimeout(20_000);
  studio.watch?.(context);
  return context;
}

/** What the clipboard holds, read from a page at `readerOrigin` (a secure context) of the same browser. */
async function clipboardText(context: BrowserContext, readerOrigin: string): Promise<string> {
  await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: readerOrigin });
  const reader = await context.newPage();
  try {
    await reader.goto(`${readerOrigin}/login`);
    return await reader.evaluate(() => navigator.clipboard.readText());
  } finally {
    await reader.close();
  }
}

/**
 * The studio's half: sign in, see the live socket answer (a client made elsewhere appears), upload
 * photos, publish and watch its progress arrive, copy the delivery link and check what was copied.
 */
/** Whether a page's socket listens for changes to a resource, from the frames it has received in order. */
function listeningFor(frames: string[], resource: string): boolean {
  let listening = false;
  for (const raw of frames) {
    const frame = JSON.parse(raw) as { event?: string; data?: { resources?: string[] } };
    if (!frame.data?.resources?.includes(resource)) continue;
    if (frame.event === "subscribed") listening = true;
    if (frame.event === "unsubscribed") listening = false;
  }
  return listening;
}

export async function studioJourney(browser: Browser, studio: Studio, clipboardOrigin: string) {
  const context = await openContext(browser, studio);
  const page = await context.newPage();
  const errors = consoleErrors(page);
  const frames: string[] = [];
  page.on("websocket", (socket) => socket.on("framereceived", ({ payload }) => void frames.push(String(payload))));
  await signIn(page, studio.email, studio.password);
  await page.getByRole("heading", { name: "Dashboard Overview" }).waitFor();

  const { accessToken } = await logIn(studio.email, studio.password, studio.apiUrl);
  const heldBefore = studio.heldClientLists?.() ?? 0;
  await page.goto("/clients/all");
  await page.getByText("All Clients").first().waitFor();
  const clientName = `Walk-in ${Date.now()}`;
  // Created only once the page's socket listens for clients: a change before that is never heard of.
  await expect.poll(() => listeningFor(frames, "clients")).toBe(true);
  if (studio.heldClientLists) await expect.poll(studio.heldClientLists).toBeGreaterThan(heldBefore);
  const client = await create<{ id: number }>(accessToken, "clients", { name: clientName }, studio.apiUrl);
  // The navigation also lists the client just added: the list is what is watched here, and it must
  // show the client live, with no reload (a change that arrived while the list was being read used
  // to be lost: see refetchInFlight in admin/src/providers/live-provider.ts).
  await page.getByRole("main").getByRole("link", { name: clientName, exact: true }).waitFor();

  const project = await create<{ id: number }>(
    accessToken,
    "projects",
    { name: `Office Network ${Date.now()}` },
    studio.apiUrl,
  );
  const photos: FilePayload[] = [];
  for (const [i, colour] of ["#d9480f", "#1c7ed6", "#37b24d"].entries())
    photos.push(await imageFile(`desk-${i + 1}.jpg`, "jpeg", colour, 900));
  await page.goto(`/projects/${project.id}`);
  await page.getByText("No attachments found for this project.").waitFor();
  await page.getByTestId("attachment-drop-zone").locator('input[type="file"]').setInputFiles(photos);
  await page.getByText(`Attachments (${photos.length})`).waitFor();

  await page.getByRole("button", { name: "Publish Project", exact: true }).click();
  await page.getByRole("link", { name: "Open delivery page" }).waitFor();
  const publishTypes = frames
    .map((frame) => JSON.parse(frame) as { event: string; data: { type?: string; projectId?: number } })
    .filter((frame) => frame.event === "publish-event" && frame.data.projectId === project.id)
    .map((frame) => frame.data.type);
  expect(publishTypes[0]).toBe("publish_started");
  expect(publishTypes.at(-1)).toBe("publish_completed");

  await page.getByRole("button", { name: "Copy page link" }).click();
  await page.getByRole("button", { name: "Copied!" }).first().waitFor();
  const copied = await clipboardText(context, clipboardOrigin);
  expect(copied.startsWith(`${studio.baseUrl}/d/`)).toBe(true);
  expect(copied).toMatch(/\/d\/[A-Za-z0-9_-]{22,}$/);
  expect(await page.getByRole("link", { name: "Open delivery page" }).getAttribute("href")).toBe(copied);
  return {
    context,
    page,
    errors,
    deliveryUrl: copied,
    photos,
    arranged: { clientId: client.id, projectId: project.id },
  };
}

/** The client's half: the delivery page with every thumbnail loaded, the viewer paging, and the ZIP downloaded whole. */
export async function clientJourney(browser: Browser, studio: Studio, deliveryUrl: string, photos: FilePayload[]) {
  const context = await openContext(browser, studio, { width: 390, height: 844 });
  const page = await context.newPage();
  const errors = consoleErrors(page);
  await page.goto(deliveryUrl);
  await page.getByText(`${photos.length} photos`).waitFor();
  expect(await loadedThumbnails(page)).toBe(photos.length);

  // In the order they were stored, which parallel uploads decide.
  const names = await page.locator(".grid img").evaluateAll((imgs) => imgs.map((img) => img.getAttribute("alt")));
  expect([...names].sort()).toEqual(photos.map((p) => p.name).sort());
  await page.locator(".grid a").first().click();
  const viewer = page.getByRole("dialog", { name: "Photo viewer" });
  await viewer.getByText(names[0]!).waitFor();
  await page.keyboard.press("ArrowRight");
  await viewer.getByText(names[1]!).waitFor();
  await expect
    .poll(() => viewer.locator("img").evaluate((img) => (img as HTMLImageElement).naturalWidth))
    .toBeGreaterThan(0);
  await page.keyboard.press("Escape");
  await viewer.waitFor({ state: "hidden" });

  const [zip] = await Promise.all([
    page.waitForEvent("download"),
    page.getByRole("link", { name: /^Download all \(ZIP, / }).click(),
  ]);
  const entries = await readZip((await zip.path())!);
  expect(entries.map((e) => e.name)).toEqual(names);
  for (const entry of entries)
    expect(entry.content.equals(photos.find((p) => p.name === entry.name)!.buffer)).toBe(true);
  fs.rmSync((await zip.path())!, { force: true });
  expect(errors).toEqual([]);
  await context.close();
}
