import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser } from "playwright-core";
import { screenshot } from "./browser";
import { imageFile } from "./fixtures/images";
import {
  arrangeLimaWedding,
  deliveryLinkIn,
  openProjectAsAdmin,
  startSendingSetup,
  type SendingSetup,
} from "./sending-setup";
import type { FreshServer } from "./fresh-server";
import type { SmtpInbox } from "../server/test/smtp-inbox";
import { mailParts } from "../server/test/mail-parts";

/**
 * A studio adds a photo to a gallery its client already has: publish, send, unpublish (confirmed),
 * add the photo, publish again telling the recipients. The link in the first mail shows "being
 * updated" meanwhile, then the gallery with the new photo; the second mail carries the same link.
 */
const BEING_UPDATED = "This gallery is being updated — please check back soon";

let setup: SendingSetup;
let smtp: SmtpInbox;
let server: FreshServer;
let browser: Browser;

beforeAll(async () => {
  ({ smtp, server, browser } = setup = await startSendingSetup());
});
afterAll(() => setup?.stop());

const arrange = () =>
  arrangeLimaWedding(
    server.baseUrl,
    [["Ana Lima", "ana@lima.test"]],
    [
      ["first-dance.jpg", "#fbc2eb"],
      ["the-rings.jpg", "#84fab0"],
    ],
  );
const linkIn = (raw: string) => deliveryLinkIn(setup.lanUrl, raw);

describe("republishing a gallery the client already has", () => {
  it("keeps the link: being updated while unpublished, then the gallery with the added photo", async () => {
    const { projectId } = await arrange();
    const { studio, staff } = await openProjectAsAdmin(browser, server.baseUrl, projectId, 900);
    await staff.getByText("Attachments (2)").waitFor();

    await staff.getByRole("button", { name: "Publish Project", exact: true }).click();
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
    // Exact: "Unpublish Project", still shown until the unpublish has been answered, contains the name.
    await staff.getByRole("button", { name: "Publish Project", exact: true }).waitFor();

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
    await staff.getByRole("button", { name: "Publish Project", exact: true }).click();
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
    await staff.getByRole("button", { name: "Publish Project", exact: true }).waitFor();
    expect((await ana.goto(link))?.status()).toBe(503);
    // Ticked last time, the box starts unticked again.
    expect(await tell.isChecked()).toBe(false);
    await staff.getByRole("button", { name: "Publish Project", exact: true }).click();
    await staff.getByRole("button", { name: "Unpublish Project" }).waitFor();
    await ana.goto(link);
    await ana.getByText("3 photos").waitFor();
    // Not told this time: once the build has left the queue, no notice of it can still come.
    await setup.publishQueueDrained();
    expect(smtp.mails).toHaveLength(2);

    await phone.close();
    await studio.close();
  });
});
