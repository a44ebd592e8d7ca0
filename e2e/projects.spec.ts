import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import { adminToken, create } from "./api";
import { launchBrowser, newPage, screenshot, settled, signInAsAdmin } from "./browser";
import { removeThroughApi } from "./fixtures/cleanup";
import { imageFile } from "./fixtures/images";

interface Named {
  id: number;
  name: string;
}

const dropZoneInput = (page: Page) => page.getByTestId("attachment-drop-zone").locator('input[type="file"]');
const dialog = (page: Page, name: string) => page.getByRole("dialog", { name });

/** Records whether the publish progress bar was ever on screen, however briefly. */
async function watchForPublishProgress(page: Page): Promise<void> {
  await page.evaluate(() => {
    const seen = window as unknown as { publishProgressSeen?: boolean };
    seen.publishProgressSeen = false;
    const observer = new MutationObserver(() => {
      if (document.querySelector('[aria-label="Publish progress"]')) {
        seen.publishProgressSeen = true;
        observer.disconnect();
      }
    });
    observer.observe(document.body, { childList: true, subtree: true });
  });
}

describe("projects, attachments and publishing", () => {
  let browser: Browser;
  let client: Named;
  const projectIds: number[] = [];

  beforeAll(async () => {
    client = await create<Named>(await adminToken(), "clients", { name: "Journey Studio Client" });
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.close();
    const token = await adminToken();
    for (const id of projectIds) await removeThroughApi(token, "projects", id);
    if (client) await removeThroughApi(token, "clients", client.id);
  });

  it("creates a project, uploads, renames, publishes, downloads the ZIP, unpublishes and bulk-deletes", async () => {
    const { context, page } = await newPage(browser);
    await context.grantPermissions(["clipboard-read", "clipboard-write"]);
    await signInAsAdmin(page);

    await page.goto("/projects/all");
    await page.getByRole("heading", { name: "All Projects" }).waitFor();
    await page.getByRole("button", { name: "Add Project" }).click();
    const createDialog = dialog(page, "Create Project");
    await createDialog.getByRole("button", { name: "Save" }).click();
    await createDialog.getByText("Name is required").waitFor();
    await createDialog.getByLabel("Name").fill("Wedding Journey");
    await createDialog.getByLabel("Description").fill("Ceremony and reception");
    await createDialog.getByLabel("Client").click();
    await page.getByRole("option", { name: client.name }).click();
    await screenshot(page, "project-create-dialog");
    await createDialog.getByRole("button", { name: "Save" }).click();
    await createDialog.waitFor({ state: "hidden" });

    const row = page.getByRole("row").filter({ hasText: "Wedding Journey" });
    await row.getByText("Ceremony and reception").waitFor();
    await row.getByRole("link", { name: client.name }).waitFor();
    await screenshot(page, "project-list");
    await row.getByRole("link", { name: "Wedding Journey" }).click();
    await page.waitForURL(/\/projects\/\d+$/);
    projectIds.push(Number(new URL(page.url()).pathname.split("/").pop()));

    await page.getByText("Attachments (0)").waitFor();
    await page.getByText("No attachments found for this project.").waitFor();
    await expect(page.getByRole("button", { name: "Publish Project", exact: true }).isDisabled()).resolves.toBe(true);
    await expect(page.getByRole("button", { name: "Select", exact: true }).count()).resolves.toBe(0);
    await page.getByText("Drag images here or click to select files").waitFor();
    await page.getByText("Attach images for this project. Each file should not exceed 10MB.").waitFor();

    await dropZoneInput(page).setInputFiles([
      await imageFile("ceremony.jpg", "jpeg", "#c0392b", 1600),
      await imageFile("rings.jpg", "jpeg", "#2980b9", 1200),
      await imageFile("cake.png", "png", "#27ae60", 800),
    ]);
    await page.getByText("Attachments (3)").waitFor();
    await page.getByText("Uploading files...").waitFor({ state: "hidden" });
    const details = page.locator(".mantine-Card-root").filter({ hasText: "Project Details" });
    await details.getByText("Total File Size").waitFor();
    await details.getByRole("link", { name: client.name }).waitFor();
    await screenshot(page, "project-with-attachments");

    await page.getByRole("button", { name: "Edit Project" }).click();
    const editDialog = dialog(page, "Edit Project");
    await expect.poll(() => editDialog.getByLabel("Name").inputValue()).toBe("Wedding Journey");
    await expect.poll(() => editDialog.getByLabel("Client").inputValue()).toBe(client.name);
    await editDialog.getByLabel("Description").fill("   ");
    await expect.poll(() => editDialog.getByLabel("Photo order").inputValue()).toBe("Capture time");
    await editDialog.getByLabel("Photo order").click();
    await page.getByRole("option", { name: "Upload order" }).click();
    await editDialog.getByRole("button", { name: "Save" }).click();
    await editDialog.waitFor({ state: "hidden" });
    await details.getByText("Ceremony and reception").waitFor({ state: "hidden" });
    await details.getByRole("link", { name: client.name }).waitFor();

    // The spec's rows, with their menus, are the list view.
    await page.getByText("List", { exact: true }).click();
    const rowNames = () =>
      page
        .getByRole("button", { name: /^Actions for / })
        .evaluateAll((all) => all.map((b) => b.getAttribute("aria-label")));
    await expect.poll(async () => (await rowNames()).length).toBe(3);
    const uploaded = await rowNames();
    // Back to capture time: photos without one (these) by file name.
    await page.getByRole("button", { name: "Edit Project" }).click();
    await expect.poll(() => editDialog.getByLabel("Photo order").inputValue()).toBe("Upload order");
    await editDialog.getByLabel("Photo order").click();
    await page.getByRole("option", { name: "Capture time" }).click();
    await editDialog.getByRole("button", { name: "Save" }).click();
    await editDialog.waitFor({ state: "hidden" });
    const byName = ["Actions for cake.png", "Actions for ceremony.jpg", "Actions for rings.jpg"];
    await expect.poll(rowNames).toEqual(byName);
    expect([...uploaded].sort()).toEqual(byName);
    await page.getByRole("button", { name: "Actions for rings.jpg" }).click();
    await page.getByRole("menuitem", { name: "Rename" }).click();
    const renameDialog = dialog(page, "Rename Attachment");
    await renameDialog.getByLabel("File name").fill("wedding-rings.jpg");
    await renameDialog.getByRole("button", { name: "Save" }).click();
    await page.getByText("wedding-rings.jpg", { exact: true }).waitFor();

    await watchForPublishProgress(page);
    await page.getByRole("button", { name: "Publish Project", exact: true }).click();
    await details.getByText(/^Published on /).waitFor();
    await expect(
      page.evaluate(() => (window as unknown as { publishProgressSeen: boolean }).publishProgressSeen),
    ).resolves.toBe(true);
    await page.getByText("This project is published. Unpublish it to add, remove, or modify attachments.").waitFor();
    await page.getByText("Cannot upload files to published project").waitFor();
    await page.getByText("Unpublish the project to add or remove attachments").waitFor();
    await expect(page.getByRole("button", { name: "Select", exact: true }).count()).resolves.toBe(0);

    const copyButton = page.getByRole("button", { name: "Copy link" });
    await expect(copyButton.getAttribute("title")).resolves.toBe("Copy download link to clipboard");
    await copyButton.click();
    await page.getByRole("button", { name: "Copied!" }).waitFor();
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    const downloadHref = await page.getByRole("link", { name: "Download ZIP" }).getAttribute("href");
    expect(copied).toBe(new URL(downloadHref!, page.url()).toString());
    // Back to 'Copy link' after its 2 s; the page's own wait, since a loaded machine runs that timer late.
    await copyButton.waitFor();
    await screenshot(page, "project-published");

    const zip = await page.request.get(copied);
    expect(zip.status()).toBe(200);
    expect(zip.headers()["content-type"]).toContain("zip");
    expect((await zip.body()).subarray(0, 2).toString("latin1")).toBe("PK");

    await page.getByRole("button", { name: "Unpublish Project" }).click();
    await page.getByRole("dialog", { name: "Unpublish project" }).getByRole("button", { name: "Unpublish" }).click();
    await details.getByText("Draft", { exact: true }).waitFor();
    await page.getByRole("button", { name: "Publish Project", exact: true }).waitFor();
    await expect(page.getByRole("link", { name: "Download ZIP" }).count()).resolves.toBe(0);

    await page.getByRole("button", { name: "Select", exact: true }).click();
    await page.getByText("0 of 3 selected").waitFor();
    await page.getByRole("button", { name: "Select All", exact: true }).click();
    await page.getByText("3 of 3 selected").waitFor();
    await page.getByRole("button", { name: "Deselect All" }).click();
    await page.getByRole("checkbox", { name: "Select ceremony.jpg" }).check();
    await page.getByRole("checkbox", { name: "Select wedding-rings.jpg" }).check();
    await page.getByText("2 of 3 selected").waitFor();
    await page.getByRole("button", { name: "Delete Selected (2)" }).click();
    const confirm = dialog(page, "Delete Selected Attachments");
    await confirm
      .getByText("Are you sure you want to delete 2 selected attachment(s)? This action cannot be undone.")
      .waitFor();
    await settled(confirm);
    await screenshot(page, "attachments-delete-confirm");
    await confirm.getByRole("button", { name: "Delete" }).click();
    await page.getByText("Attachments (1)").waitFor();
    await expect(page.getByText("cake.png", { exact: true }).isVisible()).resolves.toBe(true);
    await expect(page.getByText("ceremony.jpg", { exact: true }).count()).resolves.toBe(0);
    await context.close();
  });

  it("creates a project for the client whose page it is added from", async () => {
    const { context, page } = await newPage(browser);
    await signInAsAdmin(page);
    await page.goto(`/clients/${client.id}`);
    await page.getByRole("button", { name: "Add Project" }).click();
    const createDialog = dialog(page, "Create Project");
    await expect.poll(() => createDialog.getByLabel("Client").inputValue()).toBe(client.name);
    await createDialog.getByLabel("Name").fill("Client Page Project");
    await createDialog.getByRole("button", { name: "Save" }).click();
    await createDialog.waitFor({ state: "hidden" });

    await page.getByRole("link", { name: "Client Page Project" }).first().click();
    await page.waitForURL(/\/projects\/\d+$/);
    projectIds.push(Number(new URL(page.url()).pathname.split("/").pop()));
    const details = page.locator(".mantine-Card-root").filter({ hasText: "Project Details" });
    await details.getByRole("link", { name: client.name }).waitFor();
    await expect(details.getByText("Description").count()).resolves.toBe(0);
    await context.close();
  });

  it("says so when a project does not exist", async () => {
    const { context, page } = await newPage(browser);
    await signInAsAdmin(page);
    await page.goto("/projects/999999");
    await page.getByText("Error loading project").waitFor();
    await page.getByText("Project not found or failed to load.").waitFor();
    await screenshot(page, "project-not-found");
    await context.close();
  });

  it("shows an empty project without attachments, with Publish disabled", async () => {
    const project = await create<Named>(await adminToken(), "projects", { name: "Empty Journey Project" });
    projectIds.push(project.id);
    const { context, page } = await newPage(browser);
    await signInAsAdmin(page);
    await page.goto(`/projects/${project.id}`);
    await page.getByRole("link", { name: "Empty Journey Project" }).first().waitFor();
    await page.getByText("No attachments found for this project.").waitFor();
    await expect(page.getByRole("button", { name: "Publish Project", exact: true }).isDisabled()).resolves.toBe(true);
    await page.getByText("Draft", { exact: true }).waitFor();
    await screenshot(page, "project-empty");
    await context.close();
  });
});
