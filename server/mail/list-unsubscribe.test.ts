import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLogger } from "../logger";
import { createMailer, headerComment } from "./mailer";
import { startSmtpInbox, type SmtpInbox } from "../test/smtp-inbox";
import { mailParts } from "../test/mail-parts";

/** The List-Unsubscribe header's comment: the one text of it a mail's language gives. */
let smtp: SmtpInbox;
beforeAll(async () => {
  smtp = await startSmtpInbox();
});
afterAll(() => smtp.close());

const URL = "https://photos.example.test/unsubscribe/abc?lang=de";

async function sentWith(unsubscribeLabel: string | undefined) {
  const mailer = createMailer({ smtpUrl: smtp.url, from: "Studio <no-reply@studio.test>" }, createLogger("silent"));
  const before = smtp.mails.length;
  await mailer.send({ to: "anna@client.test", subject: "Photos", text: "Hi", unsubscribeUrl: URL, unsubscribeLabel });
  expect(smtp.mails).toHaveLength(before + 1);
  return mailParts(smtp.mails[before].raw);
}

describe("the List-Unsubscribe header", () => {
  it("says its comment in the mail's language, encoded where it is not ASCII", async () => {
    expect((await sentWith("Abbestellen")).header("List-Unsubscribe")).toEqual([`<${URL}> (Abbestellen)`]);
    expect((await sentWith("Me désabonner")).header("List-Unsubscribe")).toEqual([`<${URL}> (Me désabonner)`]);
    expect((await sentWith(undefined)).header("List-Unsubscribe")).toEqual([`<${URL}>`]);
  });

  it("keeps a label with line breaks or parentheses inside its one comment", async () => {
    const mail = await sentWith("Stop\r\nBcc: eve@evil.test (now) \\");
    expect(mail.header("List-Unsubscribe")).toEqual([`<${URL}> (Stop Bcc: eve@evil.test now)`]);
    expect(mail.header("Bcc")).toEqual([]);
    expect(mail.headerLines.filter((line) => /^list-unsubscribe:/i.test(line))).toHaveLength(1);
  });

  it("has a comment text that cannot leave the comment", () => {
    expect(headerComment("Afmeld")).toBe("Afmeld");
    expect(headerComment("a)\nb(\\c\u0000d")).toBe("a b c d");
  });
});
