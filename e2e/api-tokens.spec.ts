import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { Browser } from "playwright-core";
import { launchBrowser, newPage, screenshot, settled, signInAsAdmin, SIZES, expectNoSidewaysScroll } from "./browser";
import { imageFile } from "./fixtures/images";

const api = (token: string, path: string, init: RequestInit = {}) =>
  fetch(`${inject("baseUrl")}/api${path}`, {
    ...init,
    headers: {
      Authorization: `Bearer ${token}`,
      ...(init.body instanceof FormData ? {} : { "Content-Type": "application/json" }),
    },
  });

describe("API tokens in the web app", () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it.each(SIZES)(
    "made from the user menu, used by a script to add a project and a photo, deleted at once ($name)",
    async ({ name, viewport }) => {
      const { context, page } = await newPage(browser);
      await page.setViewportSize(viewport);
      await signInAsAdmin(page);
      await page.getByRole("button", { name: "Account menu" }).click();
      await page.getByRole("menuitem", { name: "API tokens" }).click();
      await page.getByRole("heading", { name: "API tokens" }).waitFor();

      await page.getByRole("button", { name: "New token" }).click();
      const dialog = page.getByRole("dialog", { name: "New API token" });
      await settled(dialog);
      const tokenName = `Booking form ${name}`;
      await dialog.getByLabel("Name").fill(tokenName);
      await dialog.getByLabel("Access").click();
      await page.getByRole("option", { name: "Read and write" }).click();
      await dialog.getByRole("button", { name: "Create token" }).click();
      const shown = page.getByRole("dialog", { name: "Your new API token" });
      await shown.getByText("Copy it now: it is not shown again.").waitFor();
      const token = (await shown.getByLabel("API token").textContent())!.trim();
      expect(token).toMatch(/^pd_[0-9A-Za-z]{49}$/);
      await screenshot(page, `api-token-created-${name}`, { fullPage: false });
      await shown.getByRole("button", { name: "Done" }).click();

      // A script with it: a client, a project, a photo.
      const client = await api(token, "/clients", {
        method: "POST",
        body: JSON.stringify({ name: `Token Client ${name}` }),
      });
      expect(client.status).toBe(201);
      const { id: clientId } = (await client.json()) as { id: number };
      const project = await api(token, "/projects", {
        method: "POST",
        body: JSON.stringify({ name: `Token Project ${name}`, clientId }),
      });
      expect(project.status).toBe(201);
      const { id: projectId } = (await project.json()) as { id: number };
      const photo = await imageFile("IMG_0001.jpg", "jpeg", "#5577aa");
      const form = new FormData();
      form.append("file", new Blob([new Uint8Array(photo.buffer)], { type: photo.mimeType }), photo.name);
      const uploaded = await api(token, `/attachments/projects/${projectId}/upload`, { method: "POST", body: form });
      expect(uploaded.status).toBe(201);

      // The list shows its last use; deleting it ends it on the next call.
      await page.reload();
      // A table row on a desktop, a card on a phone: never wider than the screen.
      const row = page.getByRole(name === "phone" ? "listitem" : "row").filter({ hasText: tokenName });
      await row.getByText("Read and write").waitFor();
      await expectNoSidewaysScroll(page);
      await expect.poll(() => row.getByText(/^from /).count(), { timeout: 15_000 }).toBe(1);
      await screenshot(page, `api-tokens-${name}`);
      await row.getByRole("button", { name: "Delete" }).click();
      const confirm = page.getByRole("dialog");
      const deleted = page.waitForResponse(
        (res) => res.request().method() === "DELETE" && /\/api\/users\/me\/tokens\/\d+$/.test(res.url()),
      );
      await confirm.getByRole("button", { name: "Delete token" }).click();
      expect((await deleted).status()).toBe(204);
      // The list is out of the accessibility tree while the dialog is open: count its rows once it has closed.
      await confirm.waitFor({ state: "detached" });
      await expect.poll(() => row.count()).toBe(0);
      const refused = await api(token, "/projects");
      expect(refused.status).toBe(401);
      await context.close();
    },
  );
});
