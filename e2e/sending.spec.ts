import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser } from "playwright-core";
import { screenshot, settled } from "./browser";
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
 * A studio whose clients reach it as `studio.lan` (PUBLIC_URL) sends a published project to two of
 * its client's contacts; the mails arrive in a real SMTP inbox, the link in one opens
 * the delivery page, and the download shows in 'Delivery activity' on the studio's open page.
 */
let setup: SendingSetup;
let smtp: SmtpInbox;
let server: FreshServer;
let browser: Browser;
let lanUrl: string;

beforeAll(async () => {
  ({ smtp, server, browser, lanUrl } = setup = await startSendingSetup());
});
afterAll(() => setup?.stop());

/** The studio's first account (the admin), a client with two contacts, and a project with photos. */
const arrange = () =>
  arrangeLimaWedding(
    server.baseUrl,
    [
      ["Ana Lima", "ana@lima.test"],
      ["Luís Lima", "luis@lima.test"],
    ],
    [
      ["first-dance.jpg", "#fbc2eb"],
      ["the-rings.jpg", "#84fab0"],
      ["sparklers.jpg", "#30cfd0"],
    ],
  );

describe("sending a gallery to the client", () => {
  it("publishes, sends to two contacts, and shows the client's download in Delivery activity without a reload", async () => {
    const { projectId } = await arrange();
    // The studio works on the server's own machine; its clients come by the name in PUBLIC_URL.
    const { studio, staff } = await openProjectAsAdmin(browser, server.baseUrl, projectId, 1000);
    await staff.getByText("Attachments (3)").waitFor();
    const activity = staff
      .locator(".mantine-Card-root")
      .filter({ has: staff.getByRole("heading", { name: "Delivery activity" }) });
    await activity.getByText("Nothing yet.", { exact: false }).waitFor();
    const reminder = activity.getByRole("checkbox", { name: "Remind 3 days before the link expires" });
    await expect.poll(() => reminder.isChecked()).toBe(true);

    await staff.getByRole("button", { name: "Publish Project", exact: true }).click();
    await staff.getByRole("button", { name: "Send to client" }).click();
    const dialog = staff.getByRole("dialog", { name: "Send to client" });
    await dialog.getByRole("checkbox", { name: "Ana Lima <ana@lima.test>" }).waitFor();
    expect(await dialog.getByRole("checkbox", { name: "Ana Lima <ana@lima.test>" }).isChecked()).toBe(true);
    expect(await dialog.getByRole("checkbox", { name: "Luís Lima <luis@lima.test>" }).isChecked()).toBe(true);
    expect(await dialog.getByLabel("Subject").inputValue()).toBe("Your photos from Lumen Studio: Lima Wedding");
    await settled(dialog);
    await screenshot(staff, "send-to-client");
    await dialog.getByRole("button", { name: "Send to 2 recipients" }).click();
    await dialog.getByText("Sent to 2 recipients").waitFor();
    await dialog.getByRole("button", { name: "Done" }).click();
    await activity.getByText("Sent by Ada Admin").waitFor();
    const days = activity.getByLabel("Days before the link expires", { exact: true });
    await days.fill("5");
    await days.press("Enter");
    await expect
      .poll(() => activity.getByRole("checkbox", { name: "Remind 5 days before the link expires" }).isChecked())
      .toBe(true);

    // Both mails arrive, each with its own link to the delivery page on the studio's address.
    await expect.poll(() => smtp.mails.map((m) => m.to[0]).sort()).toEqual(["ana@lima.test", "luis@lima.test"]);
    const mail = mailParts(smtp.mails.find((m) => m.to.includes("ana@lima.test"))!.raw);
    expect(mail.header("Subject")).toEqual(["Your photos from Lumen Studio: Lima Wedding"]);
    const link = deliveryLinkIn(lanUrl, mail.text);
    expect(link).toBeDefined();
    expect(mail.html).toContain(`href="${link}"`);

    // Ana opens the link from her mail on her phone and downloads everything.
    const phone = await browser.newContext({
      viewport: { width: 390, height: 844 },
      isMobile: true,
      hasTouch: true,
      acceptDownloads: true,
    });
    phone.setDefaultTimeout(20_000);
    const ana = await phone.newPage();
    await ana.goto(link!);
    await ana.getByRole("heading", { name: "Lima Wedding" }).waitFor();
    expect(new URL(ana.url()).search).toBe("");
    await ana.getByText("3 photos").waitFor();
    const [download] = await Promise.all([
      ana.waitForEvent("download"),
      ana.getByRole("link", { name: /^Download all \(ZIP, / }).click(),
    ]);
    expect(download.suggestedFilename()).toBe("Lima Wedding.zip");
    await download.path();

    // The studio's page shows it, put down to Ana, without a reload.
    await activity.getByText("Full ZIP downloaded").waitFor();
    await activity.getByText("By Ana Lima <ana@lima.test>").first().waitFor();
    await activity.getByText("1 page view").waitFor();
    // A full-page screenshot taken scrolled down draws the sticky header mid-page.
    await staff.evaluate(() => window.scrollTo(0, 0));
    await screenshot(staff, "delivery-activity");

    // The dialog on a 390 px phone: every recipient and the send button within the screen.
    await staff.setViewportSize({ width: 390, height: 844 });
    await staff.getByRole("button", { name: "Send to client" }).click();
    const send = dialog.getByRole("button", { name: "Send to 2 recipients" });
    await send.scrollIntoViewIfNeeded();
    for (const element of [dialog.getByText("Luís Lima <luis@lima.test>"), send]) {
      const box = (await element.boundingBox())!;
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width).toBeLessThanOrEqual(390);
    }
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await dialog.waitFor({ state: "hidden" });

    await phone.close();
    await studio.close();
  });
});
