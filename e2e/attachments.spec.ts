import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser } from "playwright-core";
import { adminToken, create } from "./api";
import { launchBrowser, liveFrames, newPage, screenshot, signInAsAdmin, subscribedTo } from "./browser";
import { removeThroughApi } from "./fixtures/cleanup";
import { imageFile } from "./fixtures/images";
import { uploadThroughApi } from "./fixtures/upload";
import { DROP_ZONE, dropOn, prepareDrop } from "./fixtures/drop-files";

interface Named {
  id: number;
  name: string;
}

async function signedIn(browser: Browser) {
  const { context, page } = await newPage(browser);
  const frames = liveFrames(page);
  await signInAsAdmin(page);
  return { context, page, frames };
}

describe("uploads that fail, and projects changed from the list", () => {
  let browser: Browser;
  let token: string;
  const projectIds: number[] = [];
  const arrange = async (name: string) => {
    const project = await create<Named>(token, "projects", { name });
    projectIds.push(project.id);
    return project;
  };

  beforeAll(async () => {
    token = await adminToken();
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.close();
    for (const id of projectIds) await removeThroughApi(token, "projects", id);
  });

  it("names the files it refuses, with the reason, before sending any byte of them", async () => {
    const project = await arrange("Refused Uploads Project");
    const { context, page } = await signedIn(browser);
    const uploads: string[] = [];
    page.on("request", (request) => {
      if (request.method() === "POST" && request.url().includes("/upload")) uploads.push(request.url());
    });
    await page.goto(`/projects/${project.id}`);
    await page.getByText("No attachments found for this project.").waitFor();

    await prepareDrop(page, [
      { name: "notes.txt", mimeType: "text/plain", buffer: Buffer.from("minutes of the meeting") },
      { name: "not-an-image.png", mimeType: "image/png", buffer: Buffer.from("these bytes are text, not a PNG") },
      { name: "huge.png", mimeType: "image/png", size: 10 * 1024 * 1024 + 4096 },
      await imageFile("kept.jpg", "jpeg", "#16a085"),
    ]);
    await dropOn(page, DROP_ZONE);
    const notes = page.getByLabel("Upload notes.txt");
    await notes.getByText("Unsupported file type: only JPEG, PNG, GIF and WebP images").waitFor();
    const fake = page.getByLabel("Upload not-an-image.png");
    await fake.getByText("Unsupported file type: the file's content is not a JPEG, PNG, GIF or WebP image").waitFor();
    const huge = page.getByLabel("Upload huge.png");
    await huge.getByText("File too large: 10.0 MB, over the 10.0 MB limit").waitFor();
    await huge.getByText("10.00 MB").waitFor();
    await page.getByText("Attachments (1)").waitFor();
    // Nothing is left to send: the list no longer says it is uploading.
    await page.getByText("Files not uploaded").waitFor();
    await expect(page.getByText("Uploading files...").count()).resolves.toBe(0);
    // No retry can make these acceptable.
    await expect(page.getByRole("button", { name: /^Retry / }).count()).resolves.toBe(0);
    expect(uploads).toHaveLength(1);
    await screenshot(page, "upload-errors");

    await page.getByRole("button", { name: "Remove notes.txt" }).click();
    await notes.waitFor({ state: "hidden" });
    await page.getByRole("button", { name: "Remove all failed" }).click();
    await page.getByText("Files not uploaded").waitFor({ state: "hidden" });
    await expect(page.getByText("Attachments (1)").isVisible()).resolves.toBe(true);
    await context.close();
  });

  it("publishes from a row menu once the project has attachments and then offers its ZIP", async () => {
    const project = await arrange("List Publish Project");
    const { context, page } = await signedIn(browser);
    await page.goto("/projects/all");
    const row = page.getByRole("row").filter({ hasText: "List Publish Project" });
    await row.getByRole("button", { name: "Actions for List Publish Project" }).click();
    await expect(page.getByRole("menuitem", { name: "Publish Project", exact: true }).isDisabled()).resolves.toBe(true);
    await expect(page.getByRole("menuitem", { name: "Download ZIP" }).count()).resolves.toBe(0);
    await page.keyboard.press("Escape");

    await uploadThroughApi(token, project.id, await imageFile("portrait.jpg", "jpeg", "#8e44ad"));
    await page.reload();
    await row.getByText("1", { exact: true }).waitFor();
    await row.getByRole("button", { name: "Actions for List Publish Project" }).click();
    await page.getByRole("menuitem", { name: "Publish Project", exact: true }).click();

    // The published date arrives through the live events, without a reload.
    await row.locator("td").nth(3).getByText(/\d{4}/).waitFor();
    await row.getByRole("button", { name: "Actions for List Publish Project" }).click();
    const download = page.getByRole("menuitem", { name: "Download ZIP" });
    await expect(download.getAttribute("href")).resolves.toMatch(/^\/published\/[^/]+\.zip$/);
    await screenshot(page, "project-list-published-menu");
    await context.close();
  });

  it("shows a project another user creates without a reload", async () => {
    const { context, page, frames } = await signedIn(browser);
    await page.goto("/projects/all");
    await page.getByRole("heading", { name: "All Projects" }).waitFor();
    await page.getByRole("button", { name: "Add Project" }).waitFor();
    // The other user acts only once the server has confirmed this page's live subscription.
    await subscribedTo(frames, "projects");
    await arrange("Created Elsewhere Project");
    await page.getByRole("link", { name: "Created Elsewhere Project" }).first().waitFor();
    await context.close();
  });
});
