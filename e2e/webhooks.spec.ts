import knex from "knex";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, Locator, Page } from "playwright-core";
import { Webhook as StandardWebhook } from "standardwebhooks";
import { startReceiver, type Receiver } from "../server/webhooks/test-receiver";
import { signUpAccount } from "./api";
import { expectNoSeriousAxeViolations } from "./axe";
import { launchBrowser, screenshot, settled, signIn, SIZES, expectNoSidewaysScroll } from "./browser";
import { startFreshServer, type FreshServer } from "./fresh-server";

const ADMIN = { email: "ada@studio.test", password: "ada-password-1" };
const STAFF = { email: "sam@studio.test", password: "sam-password-1" };

/**
 * Nothing in `box` reaches past the window's right edge (a table scrolling sideways inside it would);
 * polled, since a drawer slides in from that edge.
 */
async function expectNothingWider(page: Page, box: Locator) {
  const overflow = () =>
    box.evaluate((root) => {
      const rights = [root, ...root.querySelectorAll("*")].map((element) => element.getBoundingClientRect().right);
      return Math.max(...rights) - window.innerWidth;
    });
  await expect.poll(overflow).toBeLessThanOrEqual(0);
  await expectNoSidewaysScroll(page);
}

/** Shown on the screen once scrolled to, without scrolling sideways: a control a person can reach. */
async function expectWithinScreen(page: Page, control: Locator) {
  await control.scrollIntoViewIfNeeded();
  const box = (await control.boundingBox())!;
  const viewport = page.viewportSize()!;
  expect(box.x).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width).toBeLessThanOrEqual(viewport.width);
  expect(box.y).toBeGreaterThanOrEqual(0);
  expect(box.y + box.height).toBeLessThanOrEqual(viewport.height);
}

const navigation = (page: Page) => page.getByRole("navigation", { name: "Main navigation" });

/** On a phone the navigation is behind the burger. */
async function openNavigation(page: Page, phone: boolean) {
  if (phone) await page.getByRole("button", { name: "Open navigation" }).click();
}

describe("webhooks in the web app, against a real receiver", () => {
  let browser: Browser;
  let server: FreshServer;
  let receiver: Receiver;

  beforeAll(async () => {
    [browser, server, receiver] = await Promise.all([
      launchBrowser(),
      startFreshServer(() => ({ WEBHOOK_ALLOW_PRIVATE: "1" })),
      startReceiver(),
    ]);
    // The first account of a fresh installation is an approved admin; the second, staff, approved here.
    for (const account of [ADMIN, STAFF])
      await signUpAccount(account.email, account.password, undefined, server.baseUrl);
    const db = knex({ client: "sqlite3", connection: { filename: server.databaseFile }, useNullAsDefault: true });
    try {
      await db.raw("PRAGMA busy_timeout = 10000");
      await db("users").where({ email: STAFF.email }).update({ has_access: true });
    } finally {
      await db.destroy();
    }
  });

  afterAll(async () => {
    await browser?.close();
    await receiver?.close();
    await server?.stop();
  });

  async function openPage(viewport: { width: number; height: number }, touch: boolean): Promise<Page> {
    // bypassCSP: axe-core goes in as an injected script.
    const context = await browser.newContext({ baseURL: server.baseUrl, viewport, hasTouch: touch, bypassCSP: true });
    context.setDefaultTimeout(15_000);
    await context.grantPermissions(["clipboard-read", "clipboard-write"]);
    return context.newPage();
  }

  it.each(SIZES)(
    "an admin adds one, copies its secret, sends a test event and sends a failed one again ($name)",
    async ({ name, viewport, touch }) => {
      const phone = name === "phone";
      const page = await openPage(viewport, touch);
      await signIn(page, ADMIN.email, ADMIN.password);
      await page.getByRole("heading", { name: "Dashboard Overview" }).waitFor();
      await openNavigation(page, phone);
      await navigation(page).getByRole("link", { name: "Webhooks" }).click();
      await page.getByRole("heading", { name: "Webhooks" }).waitFor();

      // New webhook: URL, two events, a description; the secret is shown once.
      const path = `/hook-${name}`;
      await page.getByRole("button", { name: "New webhook" }).click();
      const dialog = page.getByRole("dialog", { name: "New webhook" });
      await settled(dialog);
      await dialog.getByLabel("URL").fill(receiver.url(path));
      await dialog.getByRole("checkbox", { name: /^project\.published/ }).check();
      await dialog.getByRole("checkbox", { name: /^favourites\.submitted/ }).check();
      await dialog.getByLabel("Description").fill(`n8n on the studio's network (${name})`);
      await screenshot(page, `webhook-new-${name}`, { fullPage: false });
      await dialog.getByRole("button", { name: "Create webhook" }).click();
      const shown = page.getByRole("dialog", { name: "Signing secret" });
      await shown.getByText("Copy it now: it is not shown again.").waitFor();
      await shown.getByRole("button", { name: "Copy secret" }).click();
      await shown.getByRole("button", { name: "Copied" }).waitFor();
      const secret = await page.evaluate(() => navigator.clipboard.readText());
      expect(secret).toMatch(/^whsec_/);
      expect((await shown.getByLabel("Signing secret").textContent())!.trim()).toBe(secret);
      await screenshot(page, `webhook-secret-${name}`, { fullPage: false });
      await shown.getByRole("button", { name: "Done" }).click();
      await shown.waitFor({ state: "detached" });

      // A table row on a desktop, a card on a phone.
      const row = page.getByRole(phone ? "listitem" : "row").filter({ hasText: receiver.url(path) });
      await row.getByText("Active").waitFor();
      await row.getByText("project.published").waitFor();
      await expectNoSidewaysScroll(page);
      await screenshot(page, `webhooks-${name}`);

      // 'Send test event': the receiver verifies its signature with the copied secret.
      await row.getByRole("button", { name: "Send test event" }).click();
      await expect.poll(() => receiver.received.filter((r) => r.path === path).length).toBe(1);
      const verifier = new StandardWebhook(secret);
      const first = receiver.received.find((r) => r.path === path)!;
      const event = verifier.verify(first.body, first.headers) as { type: string; data: { url: string } };
      expect(event.type).toBe("webhook.test");
      expect(event.data.url).toBe(receiver.url(path));

      await row.getByRole("button", { name: "Attempts" }).click();
      const drawer = page.getByRole("dialog", { name: "Attempts" });
      // Rows of a table on a desktop, cards on a phone.
      const attempts = phone
        ? drawer.getByRole("list", { name: "Attempts" }).getByRole("listitem")
        : drawer.getByRole("table", { name: "Attempts" }).locator("tbody tr");
      await expect.poll(() => attempts.count()).toBe(1);
      await attempts.first().getByText("webhook.test").waitFor();
      await attempts.first().getByText("200", { exact: true }).waitFor();
      await attempts.first().getByText("thanks").waitFor();
      await expectNothingWider(page, drawer);
      await expectWithinScreen(page, attempts.first().getByText("200", { exact: true }));
      await expectWithinScreen(page, attempts.first().getByRole("button", { name: /^Send again: webhook\.test at / }));
      await expectNoSeriousAxeViolations(page, `attempts (${name})`);

      // The receiver fails once: 'Send again' shows the 500, and sending that again succeeds.
      receiver.answers.push(500);
      await attempts
        .first()
        .getByRole("button", { name: /^Send again/ })
        .click();
      await expect.poll(() => attempts.count()).toBe(2);
      await attempts.first().getByText("500", { exact: true }).waitFor();
      await attempts.first().getByText("no: 500").waitFor();
      await attempts
        .first()
        .getByRole("button", { name: /^Send again/ })
        .click();
      await expect.poll(() => attempts.count()).toBeGreaterThanOrEqual(3);
      await attempts.first().getByText("200", { exact: true }).waitFor();
      await expectNothingWider(page, drawer);
      await screenshot(page, `webhook-attempts-${name}`, { fullPage: false });

      // Every send of the event carried the same webhook-id, each signed with the same secret.
      const sends = receiver.received.filter((r) => r.path === path);
      expect(sends.length).toBeGreaterThanOrEqual(3);
      expect(new Set(sends.map((r) => r.headers["webhook-id"])).size).toBe(1);
      for (const send of sends) expect(() => verifier.verify(send.body, send.headers)).not.toThrow();
      await page.context().close();
    },
  );

  it("refuses a metadata address by its field, turns an endpoint off and on, rotates its secret (desktop)", async () => {
    const page = await openPage(SIZES[0].viewport, false);
    await signIn(page, ADMIN.email, ADMIN.password);
    await page.getByRole("heading", { name: "Dashboard Overview" }).waitFor();
    await page.goto("/webhooks");
    await page.getByRole("heading", { name: "Webhooks" }).waitFor();

    await page.getByRole("button", { name: "New webhook" }).click();
    const dialog = page.getByRole("dialog", { name: "New webhook" });
    await dialog.getByLabel("URL").fill("http://169.254.169.254/latest");
    await dialog.getByRole("checkbox", { name: /^client\.created/ }).check();
    await dialog.getByRole("button", { name: "Create webhook" }).click();
    await dialog.getByText("169.254.169.254 is a link-local, metadata or reserved address, never allowed").waitFor();
    await expect(dialog.getByLabel("URL").getAttribute("aria-invalid")).resolves.toBe("true");
    const path = "/hook-edited";
    await dialog.getByLabel("URL").fill(receiver.url(path));
    await dialog.getByRole("button", { name: "Create webhook" }).click();
    const firstSecret = (await page
      .getByRole("dialog", { name: "Signing secret" })
      .getByLabel("Signing secret")
      .textContent())!;
    await page.getByRole("dialog", { name: "Signing secret" }).getByRole("button", { name: "Done" }).click();

    const row = page.getByRole("row").filter({ hasText: receiver.url(path) });
    const edit = page.getByRole("dialog", { name: "Edit webhook" });
    // Mantine's switch hides its checkbox: a person flips it by its label.
    const setActive = async (on: boolean) => {
      await edit.locator("label", { hasText: /^Active$/ }).click();
      await expect(edit.getByLabel("Active", { exact: true }).isChecked()).resolves.toBe(on);
    };
    await row.getByRole("button", { name: "Edit" }).click();
    await setActive(false);
    await edit.getByRole("button", { name: "Save" }).click();
    await row.getByText("Off", { exact: true }).waitFor();
    await expect(row.getByRole("button", { name: "Send test event" }).isDisabled()).resolves.toBe(true);

    // Rotating: the new secret is shown once, and signs what is sent from then on.
    await row.getByRole("button", { name: "Edit" }).click();
    await edit.getByRole("button", { name: "Rotate secret" }).click();
    await edit.getByText("Rotate the signing secret?").waitFor();
    await edit.getByRole("button", { name: "Rotate now" }).click();
    const shown = page.getByRole("dialog", { name: "Signing secret" });
    await shown.getByText("Copy it now: it is not shown again.").waitFor();
    const secret = (await shown.getByLabel("Signing secret").textContent())!.trim();
    expect(secret).toMatch(/^whsec_/);
    expect(secret).not.toBe(firstSecret.trim());
    await shown.getByRole("button", { name: "Done" }).click();
    await row.getByText("Off", { exact: true }).waitFor();
    await row.getByRole("button", { name: "Edit" }).click();
    await setActive(true);
    await edit.getByRole("button", { name: "Save" }).click();
    await row.getByText("Active", { exact: true }).waitFor();

    await row.getByRole("button", { name: "Send test event" }).click();
    await expect.poll(() => receiver.received.filter((r) => r.path === path).length).toBe(1);
    const sent = receiver.received.find((r) => r.path === path)!;
    expect(() => new StandardWebhook(secret).verify(sent.body, sent.headers)).not.toThrow();
    expect(() => new StandardWebhook(firstSecret.trim()).verify(sent.body, sent.headers)).toThrow();
    await page.context().close();
  });

  it.each(SIZES)("staff neither see nor open the screen ($name)", async ({ name, viewport, touch }) => {
    const page = await openPage(viewport, touch);
    await signIn(page, STAFF.email, STAFF.password);
    await page.getByRole("heading", { name: "Dashboard Overview" }).waitFor();
    await openNavigation(page, name === "phone");
    await navigation(page).getByRole("link", { name: "Dashboard" }).waitFor();
    await expect(navigation(page).getByRole("link", { name: "Webhooks" }).count()).resolves.toBe(0);
    const asked: string[] = [];
    page.on("request", (request) => {
      if (new URL(request.url()).pathname.startsWith("/api/webhooks")) asked.push(request.url());
    });
    await page.goto("/webhooks");
    await page.getByText("You do not have access to this page").waitFor();
    expect(asked).toEqual([]);
    await screenshot(page, `webhooks-no-access-${name}`);
    await page.context().close();
  });
});
