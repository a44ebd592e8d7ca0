import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RELAXED_LIMITS } from "../auth/auth-test-helpers";
import { mailsSettled } from "../mail/mailer";
import { createUser, type TestUser } from "../test/harness";
import { insertProjectRow } from "../test/rows";
import { addPhoto } from "../publish/test-fixtures";
import { visitorOf } from "../favourites/test-fixtures";
import { sendMail, studioWithDelivery, type Studio } from "../sending/test-fixtures";
import { startSmtpInbox, type SmtpInbox } from "../test/smtp-inbox";
import { mailParts } from "../test/mail-parts";
import { eventually } from "../test/wait";

/** What each single-line field must refuse: line breaks, other controls, and bidi embeddings, overrides and isolates. */
const REFUSED: Record<string, string> = {
  "a line break": "Ana\nBcc: evil@attacker.test",
  "a CR LF": "Ana\r\nX-Evil: yes",
  "a line separator": "Ana\u2028Lima",
  "a next-line control": "Ana\u0085Lima",
  "a tab": "Ana\tLima",
  "a bell": "Ana\u0007Lima",
  "a right-to-left override": "photo\u202Egpj.exe",
  "a right-to-left isolate": "Ana \u2067Lima\u2069",
};
const oneLine = (label: string) => `${label} must be on one line, without control characters`;

let smtp: SmtpInbox;
let s: Studio;
let admin: TestUser;
let draftId: number;
let attachmentId: number;
let address = 0;
const nextIp = () => `198.51.100.${++address}`;

beforeAll(async () => {
  smtp = await startSmtpInbox();
  s = await studioWithDelivery(smtp.url, { ...RELAXED_LIMITS, TRUST_PROXY: "1" });
  admin = await createUser(s.t.ctx, { role: "admin", email: "boss@lumen.test" });
  draftId = await insertProjectRow(s.t.ctx, { name: "Draft", clientId: s.clientId });
  await addPhoto(s.t.ctx, draftId, "first.jpg");
  attachmentId = (await s.t.ctx.db("attachments").where({ project_id: draftId }).first()).id;
}, 60_000);
afterAll(async () => {
  await s?.t.close();
  await smtp?.close();
});

const api = () => request(s.t.app);
const rows = async (table: string, by = "id") => s.t.ctx.db(table).orderBy(by);
const row = (table: string, key: Record<string, unknown>) => s.t.ctx.db(table).where(key).first();

interface Field {
  /** The field's key in the body and in `errors`. */
  key: string;
  /** How its message names it. */
  label: string;
  send(value: string): request.Test | Promise<request.Response>;
  /** Everything the request could have changed. */
  state(): Promise<unknown>;
}

/** A field named "name" whose message calls it "Name". */
const nameField = (send: Field["send"], state: Field["state"]): Field => ({ key: "name", label: "Name", send, state });

const FIELDS: Record<string, Field> = {
  "a new client's name": nameField(
    (name) => api().post("/api/clients").set(s.staff.auth).send({ name }),
    () => rows("clients"),
  ),
  "a client's new name": nameField(
    (name) => api().put(`/api/clients/${s.clientId}`).set(s.staff.auth).send({ name }),
    () => rows("clients"),
  ),
  "a new contact's name": nameField(
    (name) => api().post("/api/contacts").set(s.staff.auth).send({ name, clientId: s.clientId }),
    () => rows("contacts"),
  ),
  "a contact's new name (the name a client's mail is addressed to)": nameField(
    (name) => api().patch(`/api/contacts/${s.ana}`).set(s.staff.auth).send({ name }),
    () => rows("contacts"),
  ),
  "a new project's name": nameField(
    (name) => api().post("/api/projects").set(s.staff.auth).send({ name }),
    () => rows("projects"),
  ),
  "a project's new name (its mail, its page and its ZIP's name)": nameField(
    (name) => api().put(`/api/projects/${s.delivery.id}`).set(s.staff.auth).send({ name }),
    () => rows("projects"),
  ),
  "the studio's name": nameField(
    (name) => api().put("/api/studio/settings").set(admin.auth).send({ name }),
    async () => (await api().get("/api/studio/settings").set(admin.auth)).body,
  ),
  "a display name at sign-up": {
    key: "displayName",
    label: "Display name",
    send: (displayName) =>
      api().post("/api/auth/signup").send({ email: "mallory@evil.test", password: "mallory-1234", displayName }),
    state: () => rows("users", "uid"),
  },
  "one's own display name": {
    key: "displayName",
    label: "Display name",
    send: (displayName) => api().put("/api/users/me").set(s.staff.auth).send({ displayName }),
    state: () => row("users", { uid: s.staff.uid }),
  },
  "a send's subject": {
    key: "subject",
    label: "Subject",
    send: (subject) => sendMail(s.t, s.staff, s.delivery.id, { contactIds: [s.ana], subject }),
    state: async () => [smtp.mails.length, await rows("projects")],
  },
  "a send's passcode": {
    key: "passcode",
    label: "Passcode",
    send: (passcode) => sendMail(s.t, s.staff, s.delivery.id, { contactIds: [s.ana], passcode }),
    state: async () => smtp.mails.length,
  },
  "a delivery link's passcode": {
    key: "passcode",
    label: "Passcode",
    send: (passcode) => api().put(`/api/projects/${s.delivery.id}/delivery`).set(s.staff.auth).send({ passcode }),
    state: () => row("projects", { id: s.delivery.id }),
  },
  "a visitor's name on the delivery page": {
    key: "name",
    label: "Your name",
    send: (name) => visitorOf(s.t, s.delivery.token, nextIp()).join(name, "ana@lima.test"),
    state: () => rows("favourite_visitors"),
  },
  "an attachment's new file name": {
    key: "originalName",
    label: "Name",
    send: (originalName) => api().patch(`/api/attachments/${attachmentId}`).set(s.staff.auth).send({ originalName }),
    state: () => row("attachments", { id: attachmentId }),
  },
};

describe("a single-line field", () => {
  it.each(Object.entries(FIELDS))("refuses %s with 400 naming the field, and stores nothing", async (_, field) => {
    for (const [what, value] of Object.entries(REFUSED)) {
      const before = await field.state();
      const res = await field.send(value);
      expect(res.status, what).toBe(400);
      expect(res.body, what).toMatchObject({
        statusCode: 400,
        message: oneLine(field.label),
        errors: { [field.key]: oneLine(field.label) },
      });
      expect(await field.state(), what).toEqual(before);
    }
  });

  it("takes the direction marks LRM and RLM, which reorder nothing by themselves", async () => {
    const res = await api().put(`/api/clients/${s.clientId}`).set(s.staff.auth).send({ name: "\u200FLima\u200E" });
    expect(res.status).toBe(200);
    expect(res.body.name).toBe("\u200FLima\u200E");
  });

  it("refuses a comment on a favourite that is not one line, and keeps the list as it was", async () => {
    const visitor = visitorOf(s.t, s.delivery.token, nextIp());
    expect((await visitor.join("Ana Lima", "ana@lima.test")).status).toBe(201);
    for (const [what, value] of Object.entries(REFUSED)) {
      const res = await visitor.mark(1, value);
      expect(res.status, what).toBe(400);
      expect(res.body.errors, what).toEqual({ comment: oneLine("The comment") });
    }
    expect((await visitor.list()).body.favourites).toEqual([]);
  });
});

describe("a phone number", () => {
  it("is one line too, wherever it is typed", async () => {
    const invalid = "A phone number may hold only digits, spaces and + ( ) - . /";
    for (const phone of ["555 0100\n\next 12", "555 0100\u2028x 12", "555 0100\tx 12"]) {
      const contact = await api().patch(`/api/contacts/${s.ana}`).set(s.staff.auth).send({ phoneNumber: phone });
      expect(contact.body.errors, JSON.stringify(phone)).toEqual({ phoneNumber: invalid });
      const studio = await api().put("/api/studio/settings").set(admin.auth).send({ contactPhone: phone });
      expect(studio.body.errors, JSON.stringify(phone)).toEqual({ contactPhone: invalid });
      const me = await api().put("/api/users/me").set(s.staff.auth).send({ phoneNumber: phone });
      expect(me.body.errors, JSON.stringify(phone)).toEqual({ phoneNumber: invalid });
    }
    expect((await row("contacts", { id: s.ana })).phone_number).toBeNull();
  });
});

describe("a multi-line field", () => {
  it("keeps the line breaks of a project's description", async () => {
    const description = "Ceremony at noon.\nReception after.\n\nBring the drone.";
    const res = await api().put(`/api/projects/${draftId}`).set(s.staff.auth).send({ description });
    expect(res.status).toBe(200);
    expect((await api().get(`/api/projects/${draftId}`).set(s.staff.auth)).body.description).toBe(description);
  });
});

describe("the other rules of the same fields", () => {
  it("refuses a passcode of spaces only", async () => {
    const before = await row("projects", { id: s.delivery.id });
    for (const passcode of ["    ", "\u00a0\u00a0\u00a0\u00a0"]) {
      const res = await api().put(`/api/projects/${s.delivery.id}/delivery`).set(s.staff.auth).send({ passcode });
      expect(res.status).toBe(400);
      expect(res.body.errors).toEqual({ passcode: "Passcode must have a character other than a space" });
    }
    expect(await row("projects", { id: s.delivery.id })).toEqual(before);
  });

  it("names the limit when a send has more than 50 addresses, and sends nothing", async () => {
    const emails = Array.from({ length: 51 }, (_, i) => `guest${i}@lima.test`);
    const before = smtp.mails.length;
    const res = await sendMail(s.t, s.staff, s.delivery.id, { emails });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      message: "At most 50 recipients at once",
      errors: { emails: "At most 50 recipients at once" },
    });
    expect(smtp.mails.length).toBe(before);
  });
});

describe("the access request mail, on a real SMTP server", () => {
  /** Every mail the app began (or began preparing) has gone out or failed: none can still arrive. */
  const settle = () => mailsSettled(s.t.ctx);
  const signUp = (email: string, displayName: string) =>
    api().post("/api/auth/signup").send({ email, password: "joiner-password-1", displayName });

  it("is never sent for a display name that would write lines of its own: the sign-up is refused", async () => {
    const before = smtp.mails.length;
    const mallory = "Mallory\n\nURGENT: your licence expires today. Renew at http://evil.test/renew\n\nSupport";
    const res = await signUp("mallory@evil.test", mallory);
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual({ displayName: oneLine("Display name") });
    expect(await row("users", { email: "mallory@evil.test" })).toBeUndefined();
    await settle();
    expect(smtp.mails.length).toBe(before);
  });

  it("names a normal sign-up on one line, and keeps the line breaks of the requester's message", async () => {
    const res = await signUp("jo@studio.test", "Jo Joiner");
    expect(res.status).toBe(201);
    const mail = await eventually(() => smtp.mails.find((m) => m.to.includes("boss@lumen.test")));
    const lines = mailParts(mail.raw).text.split(/\r?\n/);
    expect(lines[0]).toBe("Jo Joiner <jo@studio.test> asked for access to Photodrop.");

    const ask = await api()
      .post("/api/users/me/request-access")
      .set("Authorization", `Bearer ${res.body.accessToken}`)
      .send({ message: "New assistant.\nStarting Monday." });
    expect(ask.status).toBe(200);
    expect(ask.body.accessRequest).toMatchObject({ message: "New assistant.\nStarting Monday." });
  });
});
