import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import { adminToken, create } from "./api";
import { expectNoSeriousAxeViolations } from "./axe";
import { launchBrowser, screenshot, signInAsAdmin, SIZES } from "./browser";
import { removeThroughApi, type Named } from "./fixtures/cleanup";
import { startBreakingProxy, type BreakingProxy } from "./fixtures/breaking-proxy";

describe.each(SIZES)("a failed save and a failed delete, on a $name", ({ name, viewport, touch }) => {
  let browser: Browser;
  let proxy: BreakingProxy;
  let client: Named;

  beforeAll(async () => {
    const token = await adminToken();
    client = await create<Named>(token, "clients", { name: `Failing Client ${name}` });
    await create(token, "contacts", { name: `Dana ${name}`, clientId: client.id });
    [browser, proxy] = await Promise.all([launchBrowser(), startBreakingProxy(inject("baseUrl"))]);
  });

  afterAll(async () => {
    await browser?.close();
    await proxy?.close();
    if (client) await removeThroughApi(await adminToken(), "clients", client.id);
  });

  /** Signed in through the proxy, which can cut a request's connection on the way to the server. */
  async function signedIn(): Promise<Page> {
    const context = await browser.newContext({
      baseURL: proxy.url,
      viewport,
      isMobile: touch,
      hasTouch: touch,
      bypassCSP: true,
    });
    context.setDefaultTimeout(20_000);
    const page = await context.newPage();
    await signInAsAdmin(page);
    return page;
  }

  it("keeps the dialog open with the failure, then saves and deletes on a second try with a confirmation", async () => {
    const page = await signedIn();
    await page.goto(`/clients/${client.id}`);
    await page.getByRole("heading", { name: client.name }).waitFor();

    await page.getByRole("button", { name: "Edit Client" }).click();
    const edit = page.getByRole("dialog", { name: "Edit Client" });
    await edit.getByLabel("Name").fill(`${client.name} Ltd`);
    proxy.breakRequests("PATCH", /^\/api\/clients\/\d+$/);
    await edit.getByRole("button", { name: "Save" }).click();
    await edit.getByRole("alert").getByText("Could not reach the server").waitFor();
    await expectNoSeriousAxeViolations(page, `failed save (${name})`);
    await screenshot(page, `failed-save-${name}`);
    proxy.mend();
    await edit.getByRole("button", { name: "Save" }).click();
    await edit.waitFor({ state: "hidden" });
    await page.getByText("Client saved").waitFor();
    await page.getByRole("heading", { name: `${client.name} Ltd` }).waitFor();

    await page.getByRole("button", { name: "Delete", exact: true }).click();
    const confirm = page.getByRole("dialog", { name: "Delete Contact" });
    proxy.breakRequests("DELETE", /^\/api\/contacts\/\d+$/);
    await confirm.getByRole("button", { name: "Delete" }).click();
    await confirm.getByRole("alert").getByText("Could not reach the server").waitFor();
    await expect(page.getByText(`Dana ${name}`).first().isVisible()).resolves.toBe(true);
    await expectNoSeriousAxeViolations(page, `failed delete (${name})`);
    await screenshot(page, `failed-delete-${name}`);
    proxy.mend();
    await confirm.getByRole("button", { name: "Delete" }).click();
    await confirm.waitFor({ state: "hidden" });
    await page.getByText("Contact deleted").waitFor();
    await page.getByText("No contacts found for this client. Add the first contact to get started.").waitFor();
    await page.context().close();
  });
});
