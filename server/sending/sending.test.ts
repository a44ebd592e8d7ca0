import request from "supertest";
import { describe, expect, it } from "vitest";
import { mailParts } from "../test/mail-parts";
import { cookiesOf } from "../delivery/test-fixtures";
import type { SendResult, SendingDraft } from "../../api/types";
import {
  activityOf,
  linkIn,
  PUBLIC_URL,
  sendMail,
  setDelivery,
  expireLink,
  studioFixture,
  SUBJECT,
  type Studio,
} from "./test-fixtures";

const fixture = studioFixture({ refuse: (address) => address.startsWith("nobody@") });
let s: Studio;

const mailTo = (email: string) => fixture.mails.find((m) => m.to.includes(email));

describe("Send to client", () => {
  it("opens the dialog with the studio's words, the client's contacts with an address, and nothing in the way", async () => {
    s = await fixture.studio();
    const res = await request(s.t.app).get(`/api/projects/${s.delivery.id}/sending`).set(s.staff.auth);
    expect(res.status).toBe(200);
    const draft = res.body as SendingDraft;
    expect(draft.subject).toBe(SUBJECT);
    expect(draft.message).toContain("Your photos of Lima Wedding are ready.");
    expect(draft.message).toMatch(/Lumen Studio$/);
    expect(draft.contacts).toEqual([
      { id: s.ana, name: "Ana Lima", email: "ana@lima.test", unsubscribed: false, valid: true },
      { id: s.luis, name: "Luís Lima", email: "luis@lima.test", unsubscribed: false, valid: true },
    ]);
    expect(draft).toMatchObject({ hasPasscode: false, problem: null });
  });

  it("mails two contacts and a typed address one mail each, reports the refused one and still sends the others", async () => {
    s = await fixture.studio();
    const res = await sendMail(s.t, s.staff, s.delivery.id, {
      contactIds: [s.ana, s.luis],
      emails: ["nobody@elsewhere.test"],
    });
    expect(res.status).toBe(200);
    const result = res.body as SendResult;
    expect(result.sent).toEqual(["ana@lima.test", "luis@lima.test"]);
    expect(result.failed).toEqual([
      { email: "nobody@elsewhere.test", message: expect.stringContaining("550 No such mailbox") },
    ]);
    expect(result.skipped).toEqual([]);
    // Mails leave a few at a time, so they may arrive in either order; the result keeps the recipients' order.
    expect(fixture.mails.map((m) => m.to).sort()).toEqual([["ana@lima.test"], ["luis@lima.test"]]);

    const links = new Set<string>();
    for (const [email, name] of [
      ["ana@lima.test", "Ana Lima"],
      ["luis@lima.test", "Luís Lima"],
    ]) {
      const mail = mailParts(mailTo(email)!.raw);
      expect(mail.header("Subject")).toEqual([SUBJECT]);
      expect(mail.header("From")[0]).toMatch(/^"?Lumen Studio"? <no-reply@photodrop\.local>$/);
      expect(mail.header("To")[0]).toMatch(new RegExp(`^"?${name}"? <${email}>$`));
      expect(mail.header("Reply-To")).toEqual(["ann@lumen.test"]);
      expect(mail.header("List-Unsubscribe")[0]).toMatch(
        new RegExp(`^<${PUBLIC_URL}/unsubscribe/[A-Za-z0-9_-]{22}> \\(Unsubscribe\\)$`),
      );
      expect(mail.header("List-Unsubscribe-Post")).toEqual(["List-Unsubscribe=One-Click"]);
      const link = linkIn(mailTo(email)!);
      links.add(link);
      expect(link).toMatch(new RegExp(`^/d/${s.delivery.token}\\?r=[A-Za-z0-9_-]{22}$`));
      for (const part of [mail.text, mail.html]) {
        expect(part).toContain("Lumen Studio");
        expect(part).toContain("Lima Wedding");
        expect(part).toContain("3 photos, ");
        expect(part).toContain("Your photos are ready.");
      }
      expect(mail.text).toContain(`View and download the photos:\n${PUBLIC_URL}${link}`);
      expect(mail.html).toContain(`<a href="${PUBLIC_URL}${link}"`);
      expect(mail.html).toMatch(/<a href="[^"]+"[^>]*>View and download the photos<\/a>/);
      expect(mail.text).toMatch(new RegExp(`Unsubscribe from these e-mails: ${PUBLIC_URL}/unsubscribe/`));
    }
    expect(links.size).toBe(2);

    // The link in the mail opens the delivery page, remembering whose mail it was.
    const opened = await request(s.t.app).get([...links][0]);
    expect(opened.status).toBe(302);
    expect(opened.headers.location).toBe(s.delivery.page);
    expect(cookiesOf(opened)).toMatch(/^photodrop_recipient=[A-Za-z0-9_-]{22}$/);
    const page = await request(s.t.app).get(s.delivery.page).set("Cookie", cookiesOf(opened));
    expect(page.status).toBe(200);
    expect(page.text).toContain("Lima Wedding");

    const sent = (await activityOf(s.t, s.staff, s.delivery.id)).find((a) => a.type === "sent");
    expect(sent).toMatchObject({
      type: "sent",
      by: "Ann Staff",
      recipients: ["Ana Lima <ana@lima.test>", "Luís Lima <luis@lima.test>"],
      failed: ["nobody@elsewhere.test"],
    });
  });

  it("names the expiry date in the mail", async () => {
    s = await fixture.studio();
    await setDelivery(s, { expiresAt: "2099-03-14T18:30:00.000Z" });
    await sendMail(s.t, s.staff, s.delivery.id, { contactIds: [s.ana] }).expect(200);
    const mail = mailParts(mailTo("ana@lima.test")!.raw);
    for (const part of [mail.text, mail.html])
      expect(part).toContain("Available until Saturday 14 March 2099, 18:30 UTC.");
  });

  it("includes the passcode only when the sender types it again, and only the link's own", async () => {
    s = await fixture.studio();
    await setDelivery(s, { passcode: "garden-party-24" });
    const draft = await request(s.t.app).get(`/api/projects/${s.delivery.id}/sending`).set(s.staff.auth);
    expect(draft.body.hasPasscode).toBe(true);

    const wrong = await sendMail(s.t, s.staff, s.delivery.id, { contactIds: [s.ana], passcode: "garden-party-42" });
    expect(wrong.status).toBe(400);
    expect(wrong.body.errors).toEqual({ passcode: "This is not the link's passcode" });
    expect(fixture.mails).toHaveLength(0);

    await sendMail(s.t, s.staff, s.delivery.id, { contactIds: [s.ana], passcode: "garden-party-24" }).expect(200);
    await sendMail(s.t, s.staff, s.delivery.id, { contactIds: [s.luis] }).expect(200);
    const withPasscode = mailParts(mailTo("ana@lima.test")!.raw);
    expect(withPasscode.text).toContain("Passcode: garden-party-24");
    expect(withPasscode.html).toContain("Passcode: garden-party-24");
    expect(withPasscode.text).not.toContain("Open it with the passcode you were given.");
    // Without it, the mail says a passcode is needed, as a reminder does.
    const withoutPasscode = mailParts(mailTo("luis@lima.test")!.raw);
    expect(mailTo("luis@lima.test")!.raw).not.toContain("garden-party-24");
    expect(withoutPasscode.text).toContain("Open it with the passcode you were given.");
  });

  it("says why it cannot send: not published, expired, no mail server, a contact of another client, nobody chosen", async () => {
    s = await fixture.studio();
    const send = (body: Parameters<typeof sendMail>[3], id = s.delivery.id) => sendMail(s.t, s.staff, id, body);
    expect((await send({ contactIds: [s.ana] }, 999_999)).status).toBe(404);
    const nobody = await send({});
    expect(nobody.status).toBe(400);
    expect(nobody.body.message).toBe("Choose at least one recipient");
    const otherClient = await s.t.ctx
      .db("clients")
      .insert({ name: "Other", created_at: "2026-01-01T00:00:00.000Z", updated_at: "2026-01-01T00:00:00.000Z" }, [
        "id",
      ]);
    const stranger = await s.t.ctx.db("contacts").insert(
      {
        client_id: otherClient[0].id,
        name: "Stranger",
        email: "stranger@else.test",
        created_at: "2026-01-01T00:00:00.000Z",
        updated_at: "2026-01-01T00:00:00.000Z",
      },
      ["id"],
    );
    const foreign = await send({ contactIds: [stranger[0].id] });
    expect(foreign.status).toBe(400);
    expect(foreign.body.errors.contactIds).toBe(`Contact ${stranger[0].id} is not a contact of this project's client`);
    expect((await send({ emails: ["not-an-address"] })).body.errors).toEqual({ "emails.0": "Invalid email format" });

    await expireLink(s, 60_000);
    const expired = await send({ contactIds: [s.ana] });
    expect(expired.status).toBe(409);
    expect(expired.body.message).toBe("The link has expired: set a later expiry before sending it");

    await request(s.t.app).delete(`/api/projects/${s.delivery.id}/publish`).set(s.staff.auth).expect(200);
    const draft = await request(s.t.app).get(`/api/projects/${s.delivery.id}/sending`).set(s.staff.auth);
    expect(draft.body.problem).toBe("Publish the project before sending it");
    expect((await send({ contactIds: [s.ana] })).body).toMatchObject({
      statusCode: 409,
      message: "Publish the project before sending it",
    });
    expect(fixture.mails).toHaveLength(0);
    expect(await activityOf(s.t, s.staff, s.delivery.id)).toEqual([]);
  });
});

describe("a link clients can reach", () => {
  it("refuses to send with no PUBLIC_URL from a loopback address, and from a Host that is not this machine", async () => {
    s = await fixture.studio({ PUBLIC_URL: "" });
    const draft = await request(s.t.app)
      .get(`/api/projects/${s.delivery.id}/sending`)
      .set("Host", "127.0.0.1:3000")
      .set(s.staff.auth);
    expect(draft.body.problem).toBe(
      "Set PUBLIC_URL to the address your clients reach Photodrop at: a link to http://127.0.0.1:3000 only opens on this computer.",
    );
    for (const host of ["127.0.0.1:3000", "localhost:3000", "[::1]:3000"]) {
      const res = await sendMail(s.t, s.staff, s.delivery.id, { contactIds: [s.ana] }, host);
      expect(res.status).toBe(409);
      expect(res.body.message).toMatch(
        /^Set PUBLIC_URL to the address your clients reach Photodrop at: a link to http:\/\/.+ only opens on this computer\.$/,
      );
    }
    const forged = await sendMail(s.t, s.staff, s.delivery.id, { contactIds: [s.ana] }, "photos.evil.test");
    expect(forged.status).toBe(409);
    expect(forged.body.message).toBe(
      "Set PUBLIC_URL to the address your clients reach Photodrop at: this address is not one a client can open.",
    );
    expect(fixture.mails).toHaveLength(0);
  });

  it("refuses a PUBLIC_URL on loopback, and sends nothing without SMTP_URL rather than write a client's mail to the log", async () => {
    s = await fixture.studio({ PUBLIC_URL: "http://localhost:3000" });
    expect((await sendMail(s.t, s.staff, s.delivery.id, { contactIds: [s.ana] })).status).toBe(409);
    s = await fixture.studio({ SMTP_URL: "" });
    const res = await sendMail(s.t, s.staff, s.delivery.id, { contactIds: [s.ana] });
    expect(res.status).toBe(409);
    expect(res.body.message).toBe("Mail is not set up: set SMTP_URL and MAIL_FROM to send e-mail");
  });
});

describe("abuse", () => {
  it("refuses a subject or an address that would start a header of its own, and keeps names and messages out of the headers", async () => {
    s = await fixture.studio();
    for (const subject of ["Photos\r\nBcc: evil@attacker.test", "Photos\nBcc: evil@attacker.test", "Photos\rX: y"]) {
      const res = await sendMail(s.t, s.staff, s.delivery.id, { contactIds: [s.ana], subject });
      expect(res.status).toBe(400);
      expect(res.body.errors).toEqual({ subject: "Subject must be on one line, without control characters" });
    }
    for (const email of [
      "ana@lima.test\r\nBcc: evil@attacker.test",
      "ana@lima.test, evil@attacker.test",
      "Ana <ana@lima.test>",
    ]) {
      const res = await sendMail(s.t, s.staff, s.delivery.id, { emails: [email] });
      expect(res.status).toBe(400);
      expect(res.body.errors).toEqual({ "emails.0": "Invalid email format" });
    }
    expect(fixture.mails).toHaveLength(0);

    // A contact's name and address are whatever was typed into the contact form.
    await s.t.ctx.db("contacts").where({ id: s.ana }).update({ name: "Ana\r\nBcc: evil@attacker.test" });
    await s.t.ctx.db("contacts").where({ id: s.luis }).update({ email: "luis@lima.test,\r\nBcc: evil@attacker.test" });
    const res = await sendMail(s.t, s.staff, s.delivery.id, {
      contactIds: [s.ana, s.luis],
      message: "Hi\r\nBcc: evil@attacker.test\r\n.\r\nMAIL FROM:<evil@attacker.test>",
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      sent: ["ana@lima.test"],
      failed: [],
      skipped: [{ email: "luis@lima.test,\r\nBcc: evil@attacker.test", reason: "Not a valid e-mail address" }],
    });
    expect(fixture.mails.map((m) => m.to)).toEqual([["ana@lima.test"]]);
    const mail = mailParts(fixture.mails[0].raw);
    expect(mail.headerLines.filter((line) => /^bcc:/i.test(line))).toEqual([]);
    expect(mail.header("To")[0]).toMatch(/^"?Ana Bcc: evil@attacker\.test"? <ana@lima\.test>$/);
    expect(mail.text).toContain("Hi\nBcc: evil@attacker.test\n.\nMAIL FROM:<evil@attacker.test>");
  });

  it("limits sends per staff member and per project in an hour", async () => {
    s = await fixture.studio({ SEND_LIMIT_PER_PROJECT: "2", SEND_LIMIT_PER_USER: "3" });
    const send = (id: number) => sendMail(s.t, s.staff, id, { emails: ["friend@else.test"] });
    expect((await send(s.delivery.id)).status).toBe(200);
    expect((await send(s.delivery.id)).status).toBe(200);
    const third = await send(s.delivery.id);
    expect(third.status).toBe(429);
    expect(third.body.message).toBe("Too many mails sent in the last hour, please try again later");
    expect(Number(third.headers["retry-after"])).toBeGreaterThan(3000);

    const { publishDelivery } = await import("../delivery/test-fixtures");
    const other = await publishDelivery(s.t, s.staff, { clientId: s.clientId, name: "Lima Christening" });
    expect((await send(other.id)).status).toBe(429);
    expect(fixture.mails).toHaveLength(2);
  });
});
