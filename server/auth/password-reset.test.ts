import request from "supertest";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { mailsSettled } from "../mail/mailer";
import { createTestApp, type TestApp } from "../test/harness";
import { hashSecretToken } from "./secret-tokens";
import { createLoggedTestApp, RELAXED_LIMITS, signUp } from "./auth-test-helpers";
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

const resetLink = /(\S+)\/login\?mode=reset&token=([\w-]+)/;

async function requestReset(email: string) {
  const res = await request(t.app).post("/api/auth/password-reset").send({ email });
  expect(res.status).toBe(202);
  return res;
}

async function mailTo(email: string) {
  const mail = await eventually(() => inbox.find((m) => m.to.includes(email)));
  const match = mail.body.match(resetLink);
  expect(match, mail.body).not.toBeNull();
  return { mail, base: match![1], token: match![2] };
}

describe("password reset over SMTP", () => {
  it("mails a single-use link that sets a new password and ends every session", async () => {
    t = await createTestApp({ ...RELAXED_LIMITS, SMTP_URL: smtpUrl, PUBLIC_URL: "https://photos.example.test/" });
    const session = await signUp(t.app, "lena@studio.test", "oldpass1");
    await requestReset("Lena@Studio.test");
    const { mail, base, token } = await mailTo("lena@studio.test");
    expect(base).toBe("https://photos.example.test");
    expect(mail.body).toContain("Subject: Reset your Photodrop password");
    expect(mail.body).not.toContain("oldpass1");

    const stored = await t.ctx.db("password_reset_tokens").where({ user_uid: session.user.uid });
    expect(stored).toHaveLength(1);
    expect(stored[0].token_hash).toBe(hashSecretToken(token));
    const lifetime = new Date(stored[0].expires_at).getTime() - Date.now();
    expect(lifetime).toBeGreaterThan(3500_000);
    expect(lifetime).toBeLessThanOrEqual(3600_000);

    const confirm = await request(t.app).post("/api/auth/password-reset/confirm").send({ token, password: "newpass2" });
    expect(confirm.status).toBe(204);
    expect(
      (await request(t.app).post("/api/auth/login").send({ email: "lena@studio.test", password: "oldpass1" })).status,
    ).toBe(401);
    const login = await request(t.app)
      .post("/api/auth/login")
      .send({ email: "lena@studio.test", password: "newpass2" });
    expect(login.status).toBe(200);
    expect(login.body.user.emailVerified).toBe(true);
    expect((await request(t.app).post("/api/auth/refresh").send({ refreshToken: session.refreshToken })).status).toBe(
      401,
    );
    // Access tokens from before the reset are void at once, not after their hour.
    expect(
      (await request(t.app).get("/api/users/me").set("Authorization", `Bearer ${session.accessToken}`)).status,
    ).toBe(401);
    expect(
      (await request(t.app).get("/api/users/me").set("Authorization", `Bearer ${login.body.accessToken}`)).status,
    ).toBe(200);

    const again = await request(t.app).post("/api/auth/password-reset/confirm").send({ token, password: "thirdpass3" });
    expect(again.status).toBe(400);
    expect(again.body).toMatchObject({ statusCode: 400, message: "Invalid or expired reset link" });
    expect(
      (await request(t.app).post("/api/auth/login").send({ email: "lena@studio.test", password: "newpass2" })).status,
    ).toBe(200);
  });

  it("builds the link from the request's origin when PUBLIC_URL is not set and the Host is this machine", async () => {
    t = await createTestApp({ ...RELAXED_LIMITS, SMTP_URL: smtpUrl });
    await signUp(t.app, "max@studio.test");
    await request(t.app)
      .post("/api/auth/password-reset")
      .set("Host", "localhost:8080")
      .send({ email: "max@studio.test" });
    const { base } = await mailTo("max@studio.test");
    expect(base).toBe("http://localhost:8080");
  });

  it("never mails a link pointing at a Host that is not this machine", async () => {
    t = await createTestApp({ ...RELAXED_LIMITS, SMTP_URL: smtpUrl });
    await signUp(t.app, "ada@studio.test");
    const res = await request(t.app)
      .post("/api/auth/password-reset")
      .set("Host", "evil.example:666")
      .send({ email: "ada@studio.test" });
    expect(res.status).toBe(202);
    await mailsSettled(t.ctx);
    expect(inbox).toEqual([]);
    expect(await t.ctx.db("password_reset_tokens").count({ n: "*" }).first()).toEqual({ n: 0 });
  });

  it("answers 202 for an unknown e-mail, stores nothing and sends nothing", async () => {
    t = await createTestApp({ ...RELAXED_LIMITS, SMTP_URL: smtpUrl });
    await signUp(t.app, "known@studio.test");
    const unknown = await requestReset("stranger@studio.test");
    const known = await requestReset("known@studio.test");
    expect(unknown.body).toEqual(known.body);
    await mailTo("known@studio.test");
    // Every send begun has ended: had the unknown one sent anything, it would be here too.
    await mailsSettled(t.ctx);
    expect(inbox).toHaveLength(1);
    expect(await t.ctx.db("password_reset_tokens")).toHaveLength(1);
  });

  it("refuses an expired link and leaves the password alone", async () => {
    t = await createTestApp({ ...RELAXED_LIMITS, SMTP_URL: smtpUrl });
    await signUp(t.app, "nina@studio.test", "oldpass1");
    await requestReset("nina@studio.test");
    const { token } = await mailTo("nina@studio.test");
    await t.ctx.db("password_reset_tokens").update({ expires_at: new Date(Date.now() - 1000).toISOString() });
    const res = await request(t.app).post("/api/auth/password-reset/confirm").send({ token, password: "newpass2" });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe("Invalid or expired reset link");
    expect(
      (await request(t.app).post("/api/auth/login").send({ email: "nina@studio.test", password: "oldpass1" })).status,
    ).toBe(200);
  });

  it("applies the password policy on confirm without spending the link", async () => {
    t = await createTestApp({ ...RELAXED_LIMITS, SMTP_URL: smtpUrl, PASSWORD_REQUIRE_NUMBER: "1" });
    await signUp(t.app, "omar@studio.test", "oldpass1");
    await requestReset("omar@studio.test");
    const { token } = await mailTo("omar@studio.test");
    const weak = await request(t.app).post("/api/auth/password-reset/confirm").send({ token, password: "nodigits" });
    expect(weak.status).toBe(400);
    expect(weak.body.message).toBe("Password must contain a number");
    const ok = await request(t.app).post("/api/auth/password-reset/confirm").send({ token, password: "digits42" });
    expect(ok.status).toBe(204);
  });

  it("refuses a made-up token and a request without an e-mail", async () => {
    t = await createTestApp({ ...RELAXED_LIMITS, SMTP_URL: smtpUrl });
    const bogus = await request(t.app)
      .post("/api/auth/password-reset/confirm")
      .send({ token: "not-a-real-token", password: "whatever1" });
    expect(bogus.status).toBe(400);
    expect(bogus.body.message).toBe("Invalid or expired reset link");
    const noEmail = await request(t.app).post("/api/auth/password-reset").send({});
    expect(noEmail.status).toBe(400);
    expect(noEmail.body.message).toBe("Email is required");
  });

  it("answers 202 even when the SMTP server cannot be reached, and logs the failure", async () => {
    const logged = await createLoggedTestApp({ SMTP_URL: "smtp://127.0.0.1:1" });
    t = logged;
    await signUp(logged.app, "pia@studio.test");
    const res = await request(logged.app).post("/api/auth/password-reset").send({ email: "pia@studio.test" });
    expect(res.status).toBe(202);
    await eventually(() => (logged.log().includes("password reset e-mail could not be sent") ? true : undefined));
  });
});

describe("password reset without SMTP", () => {
  it("writes the message with its link to the log at info level, and never the password", async () => {
    const logged = await createLoggedTestApp({ PUBLIC_URL: "https://photos.example.test" });
    t = logged;
    await signUp(logged.app, "quinn@studio.test", "quinnpass9");
    await requestReset("quinn@studio.test");
    const entry = await eventually(() =>
      logged.lines
        .map((l: string) => JSON.parse(l))
        .find((l: { mail?: { to: string } }) => l.mail?.to === "quinn@studio.test"),
    );
    expect(entry.level).toBe(30);
    const [, , token] = entry.mail.body.match(resetLink);
    expect(entry.mail.body).toContain(`https://photos.example.test/login?mode=reset&token=${token}`);
    const confirm = await request(logged.app)
      .post("/api/auth/password-reset/confirm")
      .send({ token, password: "freshpass1" });
    expect(confirm.status).toBe(204);
    expect(logged.log()).not.toContain("quinnpass9");
    expect(logged.log()).not.toContain("freshpass1");
  });
});
