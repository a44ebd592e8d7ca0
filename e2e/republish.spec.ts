import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser } from "playwright-core";
import { create } from "./api";
import { launchBrowser, screenshot, signIn } from "./browser";
import { startFreshServer, type FreshServer } from "./fresh-server";
import { imageFile } from "./fixtures/images";
import { uploadThroughApi } from "./fixtures/upload";
import { startSmtpInbox, type SmtpInbox } from "../server/test/smtp-inbox";
import { mailParts } from "../server/test/mail-parts";

/**
 * A studio adds a photo to a gallery its client already has: publish, send, unpublish (confirmed),
 * add the photo, publish again telling the recipients. The link in the first mail shows "being
 * updated" meanwhile, then the gallery with the new photo; the second mail carries the same link.
 */
const ADMIN = { email: "ada@lumen.test", password: "ada-password-1" };
const LAN = "studio.lan";
const BEING_UPDATED = "This gallery is being updated — please check back soon";

let smtp: SmtpInbox;
let server: FreshServer;
let browser: Browser;
let lanUrl: string;

beforeAll(async () => {
  smtp = await startSmtpInbox();
  server = await startFreshServer((port) => ({
    SMTP_URL: smtp.url,
    PUBLIC_URL: `http://${LAN}:${port}`,
    STUDIO_NAME: "Lumen Studio",
  }));
  // As in sending.spec.ts: the mails' links name the studio's LAN address, which the browser maps here.
  lanUrl = server.baseUrl.replace("127.0.0.1", LAN);
  browser = await launchBrowser([
    `--host-resolver-rules=MAP ${LAN} 127.0.0.1`,
    `--unsafely-treat-insecure-origin-as-secure=${lanUrl}`,
  ]);
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await smtp?.close();
});

async function arrange(): Promise<{ projectId: number }> {
  const signedUp = await fetch(`${server.baseUrl}/api/auth/signup`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ ...ADMIN, displayName: "Ada Admin" }),
  });
  expect(signedUp.status).toBe(201);
  const { accessToken: token } = (await signedUp.json()) as { accessToken: string };
  const client = await create<{ id: number }>(token, "clients", { name: "Lima Family" }, server.baseUrl);
  await create(token, "contacts", { name: "Ana Lima", email: "ana@lima.test", clientId: client.id }, server.baseUrl);
  const project = await create<{ id: number }>(
    token,
    "projects",
    { name: "Lima Wedding", clientId: client.id },
    server.baseUrl,
  );
  for (const [name, color] of [
    ["first-dance.jpg", "#fbc2eb"],
    ["the-rings.jpg", "#84fab0"],
  ])
    await uploadThroughApi(token, project.id, await imageFile(name, "jpeg", color, 640), server.baseUrl);
  return { projectId: project.id };
}

const linkIn = (raw: string) => new RegExp(`${lanUrl}/d/[A-Za-z0-9_-]+\\?r=[A-Za-z0-9_-]+`).exec(raw)?.[0];

describe("republishing a gallery the client already has", () => {
  it("keeps the link: being updated while unpublished, then the gallery with the added photo", async () => {
    const { projectId } = await arrange();
    const studio = await browser.newContext({ baseURL: server.baseUrl, viewport: { width: 1440, height: 900 } });
    studio.setDefaultTimeout(20_000);
    const staff = await studio.newPage();
    await signIn(staff, ADMIN.email, ADMIN.password);
    await staff.getByRole("heading", { name: "Dashboard Overview" }).waitFor();
    await staff.goto(`/projects/${projectId}`);
    await staff.getByText("Attachments (2)").waitFor();

    await staff.getByRole("button", { name: "Publish Project" }).click();
    await staff.getByRole("button", { name: "Unpublish Project" }).waitFor();
    await staff.getByRole("button", { name: "Send to client" }).click();
    const send = staff.getByRole("dialog", { name: "Send to client" });
    await expect.poll(() => send.getByRole("checkbox", { name: "Ana Lima <ana@lima.test>" }).isChecked()).toBe(true);
    await send.getByRole("button", { name: "Send to 1 recipient" }).click();
    await send.getByText("Sent to 1 recipient").waitFor();
    await send.getByRole("button", { name: "Done" }).click();
    await expect.poll(() => smtp.mails.length).toBe(1);
    const link = linkIn(mailParts(smtp.mails[0].raw).text)!;
    expect(link).toBeDefined();

    // Ana's phone: the gallery from her mail.
    const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    phone.setDefaultTimeout(20_000);
    const ana = await phone.newPage();
    await ana.goto(link);
    await ana.getByText("2 photos").waitFor();

    // Unpublish asks first, and says what the client will see.
    await staff.getByRole("button", { name: "Unpublish Project" }).click();
    const confirm = staff.getByRole("dialog", { name: "Unpublish project" });
    await confirm
      .getByText(
        "Your client's link will show 'This gallery is being updated — please check back soon' until you publish again. The link stays the same.",
      )
      .waitFor();
    await screenshot(staff, "unpublish-confirm");
    await confirm.getByRole("button", { name: "Cancel" }).click();
    await confirm.waitFor({ state: "hidden" });
    expect(await staff.getByRole("button", { name: "Unpublish Project" }).isVisible()).toBe(true);
    await staff.getByRole("button", { name: "Unpublish Project" }).click();
    await confirm.getByRole("button", { name: "Unpublish" }).click();
    await staff.getByRole("button", { name: "Publish Project" }).waitFor();

    const updating = await ana.goto(link);
    expect(updating?.status()).toBe(503);
    await ana.getByRole("heading", { name: BEING_UPDATED }).waitFor();
    await ana.getByText("Lumen Studio").first().waitFor();
    await screenshot(ana, "gallery-being-updated");

    // The studio adds a photo and publishes again, telling the recipient.
    await staff
      .getByTestId("attachment-drop-zone")
      .locator('input[type="file"]')
      .setInputFiles([await imageFile("sparklers.jpg", "jpeg", "#30cfd0", 640)]);
    await staff.getByText("Attachments (3)").waitFor();
    const tell = staff.getByRole("checkbox", { name: "Let recipients know the gallery was updated" });
    expect(await tell.isChecked()).toBe(false);
    await tell.check();
    await staff.getByRole("button", { name: "Publish Project" }).click();
    await staff.getByRole("button", { name: "Unpublish Project" }).waitFor();

    await ana.goto(link);
    await ana.getByText("3 photos").waitFor();
    await ana.getByRole("img", { name: "sparklers.jpg" }).waitFor();
    await expect.poll(() => smtp.mails.length).toBe(2);
    const notice = mailParts(smtp.mails[1].raw);
    expect(notice.header("Subject")).toEqual(["Updated: your photos of Lima Wedding"]);
    expect(linkIn(notice.text)).toBe(link);

    // The same on a phone: the confirmation fits the screen, and the link survives again.
    await staff.setViewportSize({ width: 390, height: 844 });
    await staff.getByRole("button", { name: "Unpublish Project" }).click();
    const unpublish = confirm.getByRole("button", { name: "Unpublish" });
    for (const element of [confirm.getByText("The link stays the same.", { exact: false }), unpublish]) {
      const box = (await element.boundingBox())!;
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width).toBeLessThanOrEqual(390);
    }
    await screenshot(staff, "unpublish-confirm-phone", { fullPage: false });
    await unpublish.click();
    await staff.getByRole("button", { name: "Publish Project" }).waitFor();
    expect((await ana.goto(link))?.status()).toBe(503);
    // Ticked last time, the box starts unticked again.
    expect(await tell.isChecked()).toBe(false);
    await staff.getByRole("button", { name: "Publish Project" }).click();
    await staff.getByRole("button", { name: "Unpublish Project" }).waitFor();
    await ana.goto(link);
    await ana.getByText("3 photos").waitFor();
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(smtp.mails).toHaveLength(2);

    await phone.close();
    await studio.close();
  });
});
