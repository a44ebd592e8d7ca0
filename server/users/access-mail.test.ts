import request from "supertest";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createLoggedTestApp, RELAXED_LIMITS } from "../auth/auth-test-helpers";
import { mailsSettled } from "../mail/mailer";
import { createTestApp, createUser, type TestApp, type TestUser } from "../test/harness";
import { startSmtpInbox, type ReceivedMail, type SmtpInbox } from "../test/smtp-inbox";
import { eventually } from "../test/wait";

let smtp: SmtpInbox;
let smtpUrl: string;
let inbox: ReceivedMail[];

beforeAll(async () => {
  smtp = await startSmtpInbox();
  smtpUrl = smtp.url;
  inbox = smtp.mails;
});
afterAll(() => smtp.close());

let t: Pick<TestApp, "app" | "ctx" | "close">;
afterEach(async () => {
  await t.close();
  inbox.length = 0;
});

/** Every mail this app began (or began preparing) has gone out or failed: none can still arrive. */
const settle = () => mailsSettled(t.ctx);
const mailsTo = (email: string) => inbox.filter((m) => m.to.includes(email));

async function studio(env: Record<string, string> = {}) {
  t = await createTestApp({ ...RELAXED_LIMITS, SMTP_URL: smtpUrl, PUBLIC_URL: "https://photos.example.test", ...env });
  const boss = await createUser(t.ctx, { role: "admin", email: "boss@studio.test" });
  const second = await createUser(t.ctx, { role: "admin", email: "second@studio.test" });
  const staff = await createUser(t.ctx, { email: "staff@studio.test" });
  const formerAdmin = await createUser(t.ctx, { role: "admin", hasAccess: false, email: "former@studio.test" });
  const newcomer = await createUser(t.ctx, { hasAccess: false, email: "newcomer@studio.test" });
  await t.ctx.db("users").where({ uid: newcomer.uid }).update({ display_name: "Nia Newcomer" });
  return { boss, second, staff, formerAdmin, newcomer };
}

const askForAccess = (user: TestUser, message?: string) =>
  request(t.app)
    .post("/api/users/me/request-access")
    .set(user.auth)
    .send(message === undefined ? {} : { message });

describe("the access request mail", () => {
  it("goes to every approved admin with the message and a link to Users, once per request", async () => {
    const { newcomer, staff, formerAdmin } = await studio();
    expect((await askForAccess(newcomer, "I edit the wedding albums.")).status).toBe(201);

    const mails = await eventually(() => (inbox.length >= 2 ? inbox : undefined));
    expect(mails.map((m) => m.to).sort()).toEqual([["boss@studio.test"], ["second@studio.test"]]);
    for (const mail of mails) {
      expect(mail.body).toContain("Subject: Access request from newcomer@studio.test");
      expect(mail.body).toContain("Nia Newcomer <newcomer@studio.test> asked for access to Photodrop.");
      expect(mail.body).toContain("I edit the wedding albums.");
      expect(mail.body).toContain("https://photos.example.test/users");
      expect(mail.body).not.toContain(newcomer.token);
    }
    expect(mailsTo(staff.email)).toEqual([]);
    expect(mailsTo(formerAdmin.email)).toEqual([]);

    // Asking again updates the request the admins see; it does not mail them again.
    expect((await askForAccess(newcomer, "Second try")).status).toBe(200);
    await settle();
    expect(inbox).toHaveLength(2);
  });

  it("says when there is no message, and links nowhere when the request's Host is not this machine", async () => {
    const { newcomer } = await studio({ PUBLIC_URL: "" });
    const res = await request(t.app)
      .post("/api/users/me/request-access")
      .set("Host", "evil.example")
      .set(newcomer.auth)
      .send({});
    expect(res.status).toBe(201);
    const mail = await eventually(() => mailsTo("boss@studio.test")[0]);
    expect(mail.body).toContain("They left no message.");
    expect(mail.body).toContain("sign in to Photodrop and open Users.");
    expect(mail.body).not.toContain("evil.example");
  });
});

describe("signing up", () => {
  it("is a request: the new account is pending (the badge counts it) and the admins are mailed once", async () => {
    const { boss } = await studio();
    const pendingCount = async () =>
      Number(
        (await request(t.app).get("/api/users?access=pending&_start=0&_end=1").set(boss.auth)).headers["x-total-count"],
      );
    expect(await pendingCount()).toBe(0);

    const signUp = await request(t.app)
      .post("/api/auth/signup")
      .send({ email: "joiner@studio.test", password: "joiner-password-1", displayName: "Jo Joiner" });
    expect(signUp.status).toBe(201);
    expect(signUp.body.user).toMatchObject({ hasAccess: false });
    expect(await pendingCount()).toBe(1);
    const mails = await eventually(() => (inbox.length >= 2 ? inbox : undefined));
    expect(mails.map((m) => m.to).sort()).toEqual([["boss@studio.test"], ["second@studio.test"]]);
    expect(mails[0].body).toContain("Subject: Access request from joiner@studio.test");

    // 'Submit Request' then adds the message the admins see in Users, without mailing them again.
    const ask = await request(t.app)
      .post("/api/users/me/request-access")
      .set("Authorization", `Bearer ${signUp.body.accessToken}`)
      .send({ message: "New assistant" });
    expect(ask.status).toBe(200);
    expect(ask.body.accessRequest).toMatchObject({ message: "New assistant" });
    expect(await pendingCount()).toBe(1);
    await settle();
    expect(inbox).toHaveLength(2);
  });
});

describe("the approval mail", () => {
  it("tells the approved user, with a sign-in link, and nobody else; revoking and role changes send nothing", async () => {
    const { boss, newcomer, staff } = await studio();
    const approve = await request(t.app).put(`/api/users/${newcomer.uid}`).set(boss.auth).send({ hasAccess: true });
    expect(approve.status).toBe(200);
    const mail = await eventually(() => mailsTo("newcomer@studio.test")[0]);
    expect(mail.body).toContain("Subject: Your Photodrop access is approved");
    expect(mail.body).toContain("https://photos.example.test/login");
    expect(mail.body).not.toContain(boss.token);
    expect(mail.body).not.toContain(newcomer.token);

    expect(
      (await request(t.app).put(`/api/users/${newcomer.uid}`).set(boss.auth).send({ hasAccess: true })).status,
    ).toBe(200);
    expect((await request(t.app).put(`/api/users/${staff.uid}`).set(boss.auth).send({ hasAccess: false })).status).toBe(
      200,
    );
    expect((await request(t.app).put(`/api/users/${newcomer.uid}`).set(boss.auth).send({ role: "admin" })).status).toBe(
      200,
    );
    await settle();
    expect(inbox).toHaveLength(1);
  });

  it("goes out again when a revoked user is approved again", async () => {
    const { boss, staff } = await studio();
    await request(t.app).put(`/api/users/${staff.uid}`).set(boss.auth).send({ hasAccess: false });
    await request(t.app).put(`/api/users/${staff.uid}`).set(boss.auth).send({ hasAccess: true });
    const mail = await eventually(() => mailsTo("staff@studio.test")[0]);
    expect(mail.body).toContain("Subject: Your Photodrop access is approved");
  });
});

describe("when mail cannot be sent", () => {
  it("still records the request and the approval, and logs each failure without a token", async () => {
    const logged = await createLoggedTestApp({
      SMTP_URL: "smtp://127.0.0.1:1",
      PUBLIC_URL: "https://photos.example.test",
    });
    t = logged;
    const boss = await createUser(logged.ctx, { role: "admin", email: "boss@studio.test" });
    const newcomer = await createUser(logged.ctx, { hasAccess: false, email: "newcomer@studio.test" });
    expect((await askForAccess(newcomer, "hello")).status).toBe(201);
    await eventually(() => (logged.log().includes("access request e-mail could not be sent") ? true : undefined));
    const approve = await request(logged.app)
      .put(`/api/users/${newcomer.uid}`)
      .set(boss.auth)
      .send({ hasAccess: true });
    expect(approve.status).toBe(200);
    expect(approve.body).toMatchObject({ hasAccess: true, access: "approved" });
    await eventually(() => (logged.log().includes("approval e-mail could not be sent") ? true : undefined));
    expect(logged.log()).not.toContain(boss.token);
    expect(logged.log()).not.toContain(newcomer.token);
  });
});

describe("without SMTP", () => {
  it("writes both mails to the log with their links", async () => {
    const logged = await createLoggedTestApp({ PUBLIC_URL: "https://photos.example.test" });
    t = logged;
    const boss = await createUser(logged.ctx, { role: "admin", email: "boss@studio.test" });
    const newcomer = await createUser(logged.ctx, { hasAccess: false, email: "newcomer@studio.test" });
    await askForAccess(newcomer, "hello");
    await request(logged.app).put(`/api/users/${newcomer.uid}`).set(boss.auth).send({ hasAccess: true });
    const entries = await eventually(() => {
      const mails = logged.lines.map((l) => JSON.parse(l)).filter((l: { mail?: unknown }) => l.mail);
      return mails.length >= 2 ? mails : undefined;
    });
    expect(entries.map((e: { mail: { subject: string } }) => e.mail.subject).sort()).toEqual([
      "Access request from newcomer@studio.test",
      "Your Photodrop access is approved",
    ]);
    expect(logged.log()).toContain("https://photos.example.test/users");
    expect(logged.log()).toContain("https://photos.example.test/login");
  });
});
