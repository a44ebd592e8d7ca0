import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, Locator } from "playwright-core";
import { launchBrowser, liveFrames, newPage, screenshot, signInAsAdmin, subscribedTo } from "./browser";
import { arrangeClientWithProject, type Named } from "./fixtures/cleanup";
import { imageFile } from "./fixtures/images";

/** The number a dashboard stat card shows, or NaN while it is loading. */
async function shownCount(card: Locator): Promise<number> {
  const match = /(\d[\d,]*)/.exec(await card.innerText());
  return match ? Number(match[1].replace(/,/g, "")) : Number.NaN;
}

describe("two people at once, each in their own browser", () => {
  let browser: Browser;
  let client: Named;
  let project: Named;
  let removeArranged: (() => Promise<void>) | undefined;

  beforeAll(async () => {
    ({
      client,
      project,
      remove: removeArranged,
    } = await arrangeClientWithProject("Live Two Browsers Client", "Live Two Browsers Project"));
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.close();
    await removeArranged?.();
  });

  it("a contact added in one updates the client's contact count in the other's list, without a reload", async () => {
    const watcher = await newPage(browser);
    const editor = await newPage(browser);
    const frames = liveFrames(watcher.page);
    await signInAsAdmin(watcher.page);
    await signInAsAdmin(editor.page);

    await watcher.page.goto("/clients/all");
    await watcher.page.getByLabel("Search clients").fill(client.name);
    const row = watcher.page.getByRole("row").filter({ hasText: client.name });
    const contactCount = row.locator("td").nth(3);
    await expect.poll(() => contactCount.innerText()).toBe("0");
    // The editor acts only once the server has confirmed the list's live subscription.
    await subscribedTo(frames, "clients");
    const loads = { count: 0 };
    watcher.page.on("load", () => (loads.count += 1));

    await editor.page.goto(`/clients/${client.id}`);
    await editor.page.getByRole("button", { name: "Add First Contact" }).click();
    const dialog = editor.page.getByRole("dialog", { name: "Add Contact" });
    await dialog.getByLabel("Name").fill("Live Contact");
    await dialog.getByRole("button", { name: "Save" }).click();
    await dialog.waitFor({ state: "hidden" });
    await editor.page.getByText("Contacts (1)").waitFor();

    await expect.poll(() => contactCount.innerText(), { timeout: 15_000 }).toBe("1");
    expect(loads.count).toBe(0);
    await watcher.context.close();
    await editor.context.close();
  });

  it("an upload in one updates the other's dashboard totals", async () => {
    const watcher = await newPage(browser);
    const editor = await newPage(browser);
    const frames = liveFrames(watcher.page);
    await signInAsAdmin(watcher.page);
    await signInAsAdmin(editor.page);

    const photos = watcher.page.locator(".mantine-Card-root").filter({ hasText: "Total Photos" });
    await expect.poll(() => shownCount(photos)).not.toBeNaN();
    const before = await shownCount(photos);
    await subscribedTo(frames, "dashboard");
    const loads = { count: 0 };
    watcher.page.on("load", () => (loads.count += 1));

    await editor.page.goto(`/projects/${project.id}`);
    await editor.page.getByText("No attachments found for this project.").waitFor();
    await editor.page
      .getByTestId("attachment-drop-zone")
      .locator('input[type="file"]')
      .setInputFiles([
        await imageFile("live-one.jpg", "jpeg", "#16a085", 900),
        await imageFile("live-two.png", "png", "#d35400", 700),
      ]);
    await editor.page.getByText("Attachments (2)").waitFor();
    await screenshot(editor.page, "project-with-photos");

    await expect.poll(() => shownCount(photos), { timeout: 15_000 }).toBe(before + 2);
    expect(loads.count).toBe(0);
    await screenshot(watcher.page, "dashboard");
    await watcher.context.close();
    await editor.context.close();
  });
});
