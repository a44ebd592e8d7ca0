import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import { create, getJson, logIn, signUpAccount } from "./api";
import { launchBrowser, screenshot, signInAsAdmin } from "./browser";
import { startFreshServer, type FreshServer } from "./fresh-server";
import { addPhotosBySql } from "./fixtures/photos-by-sql";
import { imageFile } from "./fixtures/images";
import { DROP_ZONE, dropOn, prepareDrop } from "./fixtures/drop-files";

const PHOTOS = 10_000;
const FIRST_SCREEN_BUDGET_MS = 1_500;
const EMAIL = "studio@big-project.test";
const PASSWORD = "big-project-password-1";

describe("a project of 10,000 photos", () => {
  let browser: Browser;
  let server: FreshServer;
  let token: string;
  let bigProject: { id: number; name: string };
  let smallProject: { id: number; name: string };

  beforeAll(async () => {
    [browser, server] = await Promise.all([launchBrowser(), startFreshServer()]);
    // The first account of a fresh installation is its admin.
    await signUpAccount(EMAIL, PASSWORD, "Studio", server.baseUrl);
    token = (await logIn(EMAIL, PASSWORD, server.baseUrl)).accessToken;
    bigProject = await create(token, "projects", { name: "Marathon 2026" }, server.baseUrl);
    await addPhotosBySql(server.databaseFile, server.uploadsDir, bigProject.id, PHOTOS);
    smallProject = await create(token, "projects", { name: "One portrait" }, server.baseUrl);
    await addPhotosBySql(server.databaseFile, server.uploadsDir, smallProject.id, 1);
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  async function signedIn(): Promise<Page> {
    const context = await browser.newContext({ baseURL: server.baseUrl, viewport: { width: 1440, height: 900 } });
    context.setDefaultTimeout(20_000);
    const page = await context.newPage();
    await signInAsAdmin(page, EMAIL, PASSWORD);
    return page;
  }

  /**
   * Milliseconds, as the page itself measures them, from the navigation (a click on a link, or the
   * start of loading the page) until the project's first photo and its count are on screen.
   */
  async function firstScreen(page: Page, photos: number, navigate: () => Promise<unknown>): Promise<number> {
    await navigate();
    await page.getByLabel("photo-00001.jpg", { exact: true }).waitFor();
    await page.getByText(`Attachments (${photos})`).waitFor();
    return page.evaluate(() => {
      const { clickedAt, shownAt } = window as unknown as { clickedAt?: number; shownAt: number };
      return Math.round(shownAt - (clickedAt ?? 0));
    });
  }

  /** Notes in the page when a link is clicked and when the first photo appears, from the page's first script on. */
  const FIRST_PHOTO_WATCH = () => {
    const probe = window as unknown as { clickedAt?: number; shownAt?: number };
    document.addEventListener(
      "click",
      () => {
        probe.clickedAt = performance.now();
        probe.shownAt = undefined;
      },
      true,
    );
    new MutationObserver(() => {
      if (probe.shownAt === undefined && document.querySelector("[aria-label='photo-00001.jpg']"))
        probe.shownAt = performance.now();
    }).observe(document, { childList: true, subtree: true });
  };

  it(
    "shows the first screen within 1.5 s, pages to the last photo, and deletes all 10,000 at once",
    { timeout: 240_000 },
    async () => {
      const page = await signedIn();
      await page.addInitScript(FIRST_PHOTO_WATCH);
      await page.reload();
      // The best of three tries of each: other work on the machine only ever adds to a figure.
      const fromLink: number[] = [];
      const afresh: number[] = [];
      const onePhotoAfresh: number[] = [];
      for (let attempt = 0; attempt < 3; attempt++) {
        await page.getByRole("link", { name: "All Projects" }).click();
        const link = page.getByRole("main").getByRole("link", { name: bigProject.name });
        await link.waitFor();
        fromLink.push(await firstScreen(page, PHOTOS, () => link.click()));
        afresh.push(await firstScreen(page, PHOTOS, () => page.goto(`/projects/${bigProject.id}`)));
        onePhotoAfresh.push(await firstScreen(page, 1, () => page.goto(`/projects/${smallProject.id}`)));
      }
      console.log(
        `first screen of the 10,000-photo project: ${fromLink.join(", ")} ms from a link; loading the page afresh ${afresh.join(", ")} ms (a one-photo project: ${onePhotoAfresh.join(", ")} ms)`,
      );
      expect(Math.min(...fromLink)).toBeLessThan(FIRST_SCREEN_BUDGET_MS);
      // Loaded afresh, the app starts first (its code, the session; the figures above show what that
      // costs on this machine now): what the page asks of the API is as small as for one photo.
      await firstScreen(page, PHOTOS, () => page.goto(`/projects/${bigProject.id}`));
      const apiBytes = await page.evaluate(() =>
        performance
          .getEntriesByType("resource")
          .filter((entry) => entry.name.includes("/api/") && !entry.name.includes("/thumbnail"))
          .reduce((sum, entry) => sum + (entry as PerformanceResourceTiming).encodedBodySize, 0),
      );
      console.log(`API bytes for the first screen: ${apiBytes}`);
      expect(apiBytes).toBeLessThan(100_000);
      // One page of photos is drawn, not the project.
      await expect(page.getByLabel(/^photo-\d{5}\.jpg$/).count()).resolves.toBeLessThanOrEqual(60);
      await screenshot(page, "big-project");

      await page.getByRole("button", { name: `Page ${Math.ceil(PHOTOS / 60)}` }).click();
      await page.getByLabel("photo-10000.jpg", { exact: true }).waitFor();

      await page.getByRole("button", { name: "Select", exact: true }).click();
      await page.getByText(`0 of ${PHOTOS} selected`).waitFor();
      await page.getByRole("button", { name: "Select All", exact: true }).click();
      await page.getByText(`${PHOTOS} of ${PHOTOS} selected`).waitFor();
      await page.getByRole("button", { name: `Delete Selected (${PHOTOS})` }).click();
      const dialog = page.getByRole("dialog", { name: "Delete Selected Attachments" });
      await dialog
        .getByText(`Are you sure you want to delete ${PHOTOS} selected attachment(s)? This action cannot be undone.`)
        .waitFor();
      await dialog.getByRole("button", { name: "Delete" }).click();
      await page.getByText("No attachments found for this project.").waitFor({ timeout: 60_000 });
      await page.getByText("Attachments (0)").waitFor();
      await dialog.waitFor({ state: "hidden" });
      const project = await getJson<{ attachmentCount: number }>(token, `projects/${bigProject.id}`, server.baseUrl);
      expect(project.attachmentCount).toBe(0);
      await page.context().close();
    },
  );

  it("queues a drop of 2,000 files without freezing the tab, sending three at a time", async () => {
    const project = await create<{ id: number }>(token, "projects", { name: "Two thousand" }, server.baseUrl);
    const page = await signedIn();
    await page.goto(`/projects/${project.id}`);
    await page.getByText("No attachments found for this project.").waitFor();
    await prepareDrop(page, [await imageFile("drop.jpg", "jpeg", "#2e86c1", 64)], 2_000);
    // From the drop on: every task that held the main thread over 50 ms, and the most rows uploading at once.
    await page.evaluate(() => {
      const probe = window as unknown as { longTasks: number[]; mostUploading: number };
      probe.longTasks = [];
      probe.mostUploading = 0;
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries()) probe.longTasks.push(entry.duration);
      }).observe({ type: "longtask" });
      const watch = () => {
        const uploading = [...document.querySelectorAll("[aria-label^='Upload '] .mantine-Badge-inner")].filter(
          (badge) => badge.textContent === "uploading",
        ).length;
        probe.mostUploading = Math.max(probe.mostUploading, uploading);
        requestAnimationFrame(watch);
      };
      watch();
    });

    await dropOn(page, DROP_ZONE);
    await page.getByText(/^and \d+ more waiting$/).waitFor();
    await page.getByText(/Attachments \([1-9]\d*\)/).waitFor({ timeout: 30_000 });
    // While the queue runs, a click is answered at once: 'Select' opens the selection bar.
    const answeredMs = await page.evaluate(async () => {
      const select = [...document.querySelectorAll("button")].find((b) => b.textContent === "Select")!;
      const clicked = performance.now();
      select.click();
      while (![...document.querySelectorAll("button")].some((b) => b.textContent === "Select All"))
        await new Promise(requestAnimationFrame);
      return Math.round(performance.now() - clicked);
    });
    await expect
      .poll(() => page.evaluate(() => (window as unknown as { mostUploading: number }).mostUploading))
      .toBe(3);
    const probe = await page.evaluate(() => {
      const { longTasks, mostUploading } = window as unknown as { longTasks: number[]; mostUploading: number };
      return { longTasks, mostUploading };
    });
    const longest = Math.round(Math.max(0, ...probe.longTasks));
    console.log(
      `2,000 files dropped: longest main-thread task ${longest} ms (${probe.longTasks.length} over 50 ms), a click answered in ${answeredMs} ms, at most ${probe.mostUploading} uploading at once`,
    );
    // Before the queue was kept outside React, the same drop held the main thread for over 10 s;
    // now about 0.3 s on a quiet machine, and a task's wall time grows on a busy one.
    expect(longest).toBeLessThan(2_000);
    expect(answeredMs).toBeLessThan(1_000);
    expect(probe.mostUploading).toBe(3);
    await page.context().close();
  });
});
