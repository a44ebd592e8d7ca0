import request from "supertest";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { bearer, RELAXED_LIMITS, type SessionBody } from "../auth/auth-test-helpers";
import { openTotpSecret } from "./secret-box";
import { createTestApp, type TestApp } from "../test/harness";
import { startSmtpInbox, type SmtpInbox } from "../test/smtp-inbox";
import { eventually } from "../test/wait";
import {
  approvedAccount,
  BUDGET_OWNER,
  challengeFor,
  codeAt,
  enrol,
  nextCode,
  secondStep,
  spendingTheAccountBudget,
} from "./two-factor-test-helpers";
import { heldPasskey } from "../passkeys/passkey-test-helpers";

let t: TestApp;
let smtp: SmtpInbox;
let admin: SessionBody;
let n = 0;

beforeAll(async () => {
  smtp = await startSmtpInbox();
  t = await createTestApp(
    { ...RELAXED_LIMITS, SMTP_URL: smtp.url, PUBLIC_URL: "https://photos.example.test/" },
    { captureLog: true },
  );
  admin = await approvedAccount(t.app, "admin@studio.test", "adminpass1");
});
afterAll(async () => {
  await t.close();
  await smtp.close();
});
afterEach(() => {
  vi.useRealTimers();
});

/** A fresh approved staff account with two-factor on. */
async function enrolledStaff(password = "staffpass1") {
  const email = `staff${++n}@studio.test`;
  const session = await approvedAccount(t.app, email, password, admin);
  return { email, password, session, ...(await enrol(t.app, session.accessToken)) };
}

/** Freezes the clock (Date only: the server reads time through it) in the middle of a 30-second step. */
function freezeMidStep(offsetSteps = 0): number {
  const at = (Math.floor(Date.now() / 30_000) + offsetSteps) * 30_000 + 15_000;
  vi.useFakeTimers({ toFake: ["Date"], now: at });
  return at;
}

describe("turning two-factor sign-in on", () => {
  it("answers a pending secret, turns on only after a right code, and answers ten recovery codes", async () => {
    const session = await approvedAccount(t.app, "enrol@studio.test", "enrolpass1", admin);
    const started = await request(t.app).post("/api/users/me/two-factor").set(bearer(session.accessToken));
    expect(started.status).toBe(200);
    expect(started.body.secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(started.body.otpauthUrl).toMatch(/^otpauth:\/\/totp\/Photodrop:enrol%40studio\.test\?/);
    expect(started.body.otpauthUrl).toContain(`secret=${started.body.secret}`);
    const pending = await request(t.app).get("/api/users/me/two-factor").set(bearer(session.accessToken));
    expect(pending.body).toEqual({ enabled: false, required: false, pending: true, recoveryCodesLeft: 0 });
    // Still one step: a password alone signs in.
    const before = await request(t.app)
      .post("/api/auth/login")
      .send({ email: "enrol@studio.test", password: "enrolpass1" });
    expect(before.body.accessToken).toEqual(expect.any(String));

    const wrong = await request(t.app)
      .post("/api/users/me/two-factor/confirm")
      .set(bearer(session.accessToken))
      .send({ code: "000000" === codeAt(started.body.secret) ? "111111" : "000000" });
    expect([wrong.status, wrong.body.errors]).toEqual([400, { code: "Wrong or already used code" }]);
    const confirmed = await request(t.app)
      .post("/api/users/me/two-factor/confirm")
      .set(bearer(session.accessToken))
      .send({ code: codeAt(started.body.secret) });
    expect(confirmed.status).toBe(200);
    expect(confirmed.body.recoveryCodes).toHaveLength(10);
    expect(new Set(confirmed.body.recoveryCodes).size).toBe(10);

    const on = await request(t.app).get("/api/users/me/two-factor").set(bearer(session.accessToken));
    expect(on.body).toEqual({ enabled: true, required: false, pending: false, recoveryCodesLeft: 10 });
    const again = await request(t.app).post("/api/users/me/two-factor").set(bearer(session.accessToken));
    expect(again.status).toBe(409);
  });

  it("stores the secret sealed, never as given, and only hashes of the recovery codes", async () => {
    const { session, secret, recoveryCodes } = await enrolledStaff();
    const row = await t.ctx.db("user_two_factor").where({ user_uid: session.user.uid }).first();
    expect(row.secret_sealed).not.toContain(secret);
    expect(await openTotpSecret(t.ctx.db, row.secret_sealed)).toBe(secret);
    const stored = await t.ctx.db("recovery_codes").where({ user_uid: session.user.uid }).pluck("code_hash");
    expect(stored).toHaveLength(10);
    for (const code of recoveryCodes) expect(stored.join()).not.toContain(code.replace(/-/g, ""));
  });

  it("refuses enrolment with an API token", async () => {
    const made = await request(t.app)
      .post("/api/users/me/tokens")
      .set(bearer(admin.accessToken))
      .send({ name: "script", scope: "admin", expiresAt: null });
    const res = await request(t.app).post("/api/users/me/two-factor").set(bearer(made.body.token));
    expect(res.status).toBe(403);
  });
});

describe("signing in with the second step", () => {
  it("answers a challenge and no session to the right password, then the session to a right code", async () => {
    const { email, password, secret } = await enrolledStaff();
    const first = await request(t.app)
      .post("/api/auth/login")
      .set("X-Photodrop-Session", "cookie")
      .send({ email, password });
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ twoFactorRequired: true, challenge: expect.any(String) });
    expect(first.headers["set-cookie"]).toBeUndefined();
    const stored = await t.ctx.db("two_factor_challenges").pluck("challenge_hash");
    expect(stored).not.toContain(first.body.challenge);

    const second = await secondStep(t.app, { challenge: first.body.challenge, code: nextCode(secret) });
    expect(second.status).toBe(200);
    const me = await request(t.app).get("/api/users/me").set(bearer(second.body.accessToken));
    expect(me.body.email).toBe(email);
  });

  it("refuses a wrong password as before, with no challenge", async () => {
    const { email } = await enrolledStaff();
    const res = await request(t.app).post("/api/auth/login").send({ email, password: "wrongpass" });
    expect([res.status, res.body.challenge]).toEqual([401, undefined]);
  });

  it("refuses a code used before (a replay within its step), and then takes the next step's code", async () => {
    const { email, password, secret } = await enrolledStaff();
    const at = freezeMidStep(2);
    const code = codeAt(secret, at);
    expect((await secondStep(t.app, { challenge: await challengeFor(t.app, email, password), code })).status).toBe(200);
    const challenge = await challengeFor(t.app, email, password);
    expect((await secondStep(t.app, { challenge, code })).status).toBe(401);
    vi.setSystemTime(at + 30_000);
    expect((await secondStep(t.app, { challenge, code: codeAt(secret, at + 30_000) })).status).toBe(200);
  });

  it("accepts one step of clock drift either way, not two", async () => {
    const { email, password, secret } = await enrolledStaff();
    const at = freezeMidStep(4);
    const behind = codeAt(secret, at - 30_000);
    const ahead = codeAt(secret, at + 30_000);
    const twoAhead = codeAt(secret, at + 60_000);
    const challenge = await challengeFor(t.app, email, password);
    if (![codeAt(secret, at), ahead, behind].includes(twoAhead))
      expect((await secondStep(t.app, { challenge, code: twoAhead })).status).toBe(401);
    expect((await secondStep(t.app, { challenge, code: behind })).status).toBe(200);
    expect(
      (await secondStep(t.app, { challenge: await challengeFor(t.app, email, password), code: ahead })).status,
    ).toBe(200);
  });

  it("spends the challenge with its success: it signs in once", async () => {
    const { email, password, secret } = await enrolledStaff();
    const at = freezeMidStep(6);
    const challenge = await challengeFor(t.app, email, password);
    expect((await secondStep(t.app, { challenge, code: codeAt(secret, at) })).status).toBe(200);
    vi.setSystemTime(at + 30_000);
    const again = await secondStep(t.app, { challenge, code: codeAt(secret, at + 30_000) });
    expect([again.status, again.body.accessToken]).toEqual([401, undefined]);
  });

  it("lets a challenge expire after five minutes", async () => {
    const { email, password, secret } = await enrolledStaff();
    const at = freezeMidStep(8);
    const challenge = await challengeFor(t.app, email, password);
    vi.setSystemTime(at + 5 * 60_000 + 1_000);
    const late = await secondStep(t.app, { challenge, code: codeAt(secret, at + 5 * 60_000 + 1_000) });
    expect(late.status).toBe(401);
    const unknown = await secondStep(t.app, { challenge: "made-up", code: "123456" });
    expect(unknown.status).toBe(401);
  });

  it("refuses a body with both a code and a recovery code, or neither", async () => {
    const both = await secondStep(t.app, { challenge: "x", code: "123456", recoveryCode: "abcd-efgh-jkmn" });
    const neither = await secondStep(t.app, { challenge: "x" });
    expect([both.status, neither.status]).toEqual([400, 400]);
  });
});

describe("recovery codes", () => {
  it("sign in once each, mail the user, and stop working when made anew", async () => {
    const { email, password, session, recoveryCodes } = await enrolledStaff();
    const [first, second] = recoveryCodes;
    const signedIn = await secondStep(t.app, {
      challenge: await challengeFor(t.app, email, password),
      recoveryCode: first.toUpperCase().replace("-", " "),
    });
    expect(signedIn.status).toBe(200);
    const mail = await eventually(() => smtp.mails.find((m) => m.to.includes(email) && /recovery code/.test(m.body)));
    expect(mail.body).toContain("9 of your recovery codes are left");
    expect(mail.body).not.toContain(first);

    const challenge = await challengeFor(t.app, email, password);
    expect((await secondStep(t.app, { challenge, recoveryCode: first })).status).toBe(401);

    const remade = await request(t.app)
      .post("/api/users/me/two-factor/recovery-codes")
      .set(bearer(session.accessToken));
    expect(remade.status).toBe(200);
    expect(remade.body.recoveryCodes).toHaveLength(10);
    expect((await secondStep(t.app, { challenge, recoveryCode: second })).status).toBe(401);
    expect((await secondStep(t.app, { challenge, recoveryCode: remade.body.recoveryCodes[0] })).status).toBe(200);
  });
});

describe("what does not bypass the second step", () => {
  it("still asks for the code after a password reset", async () => {
    const { email, secret } = await enrolledStaff();
    expect((await request(t.app).post("/api/auth/password-reset").send({ email })).status).toBe(202);
    const mail = await eventually(() => smtp.mails.find((m) => m.to.includes(email) && /mode=reset/.test(m.body)));
    const token = /token=([\w-]+)/.exec(mail.body)![1];
    const reset = await request(t.app).post("/api/auth/password-reset/confirm").send({ token, password: "brandnew9" });
    expect(reset.status).toBe(204);
    const challenge = await challengeFor(t.app, email, "brandnew9");
    expect((await secondStep(t.app, { challenge, code: nextCode(secret) })).status).toBe(200);
  });
});

describe("turning two-factor sign-in off", () => {
  it("needs the right password or a current code", async () => {
    const { email, password, session, secret } = await enrolledStaff();
    const wrong = await request(t.app)
      .delete("/api/users/me/two-factor")
      .set(bearer(session.accessToken))
      .send({ password: "not-it" });
    expect([wrong.status, wrong.body.errors]).toEqual([400, { password: "Wrong password" }]);
    const neither = await request(t.app).delete("/api/users/me/two-factor").set(bearer(session.accessToken)).send({});
    expect(neither.status).toBe(400);
    const off = await request(t.app)
      .delete("/api/users/me/two-factor")
      .set(bearer(session.accessToken))
      .send({ code: nextCode(secret) });
    expect(off.status).toBe(204);
    const login = await request(t.app).post("/api/auth/login").send({ email, password });
    expect(login.body.accessToken).toEqual(expect.any(String));
    expect(await t.ctx.db("recovery_codes").where({ user_uid: session.user.uid })).toEqual([]);
  });

  it("turns off with the password", async () => {
    const { session, password } = await enrolledStaff();
    const off = await request(t.app)
      .delete("/api/users/me/two-factor")
      .set(bearer(session.accessToken))
      .send({ password });
    expect(off.status).toBe(204);
    const status = await request(t.app).get("/api/users/me/two-factor").set(bearer(session.accessToken));
    expect(status.body.enabled).toBe(false);
  });
});

describe("an admin resetting someone's two-factor", () => {
  it("turns it off, mails the user and notes who did it; a staff member may not", async () => {
    const { email, password, session } = await enrolledStaff();
    const other = await approvedAccount(t.app, `peer${++n}@studio.test`, "peerpass1", admin);
    const byStaff = await request(t.app)
      .delete(`/api/users/${session.user.uid}/two-factor`)
      .set(bearer(other.accessToken));
    expect(byStaff.status).toBe(403);
    const shown = async () =>
      (await request(t.app).get(`/api/users/${session.user.uid}`).set(bearer(admin.accessToken))).body.twoFactor;
    expect(await shown()).toBe(true);
    const reset = await request(t.app)
      .delete(`/api/users/${session.user.uid}/two-factor`)
      .set(bearer(admin.accessToken));
    expect(reset.status).toBe(204);
    expect(await shown()).toBe(false);
    const mail = await eventually(() =>
      smtp.mails.find((m) => m.to.includes(email) && /An admin turned off/.test(m.body)),
    );
    expect(mail.body).toContain("https://photos.example.test/");
    // No passkey to remove: the mail names none.
    expect(mail.body).not.toContain("removed too");
    const login = await request(t.app).post("/api/auth/login").send({ email, password });
    expect(login.body.accessToken).toEqual(expect.any(String));
    const noted = t.logLines
      .map((line) => JSON.parse(line))
      .find((l) => l.msg === "two-factor sign-in reset by an admin");
    expect(noted).toMatchObject({ by: admin.user.uid, uid: session.user.uid });
    const twice = await request(t.app)
      .delete(`/api/users/${session.user.uid}/two-factor`)
      .set(bearer(admin.accessToken));
    expect(twice.status).toBe(409);
    const nobody = await request(t.app).delete("/api/users/nobody/two-factor").set(bearer(admin.accessToken));
    expect(nobody.status).toBe(404);
  });

  it("removes the user's passkeys with it (the lost device may hold one), and the mail says so", async () => {
    const { email, session } = await enrolledStaff();
    const other = await approvedAccount(t.app, `peer${++n}@studio.test`, "peerpass1", admin);
    await heldPasskey(t, session, "Phone");
    await heldPasskey(t, session, "Laptop");
    const othersKey = await heldPasskey(t, other, "Theirs");
    const passkeysOf = (who: SessionBody) => request(t.app).get("/api/users/me/passkeys").set(bearer(who.accessToken));
    expect((await passkeysOf(session)).body).toHaveLength(2);
    const reset = await request(t.app)
      .delete(`/api/users/${session.user.uid}/two-factor`)
      .set(bearer(admin.accessToken));
    expect(reset.status).toBe(204);
    expect((await passkeysOf(session)).body).toEqual([]);
    expect(await t.ctx.db("passkeys").where({ user_uid: session.user.uid })).toEqual([]);
    expect((await passkeysOf(other)).body).toEqual([expect.objectContaining({ id: othersKey.passkey.id })]);
    const mail = await eventually(() =>
      smtp.mails.find((m) => m.to.includes(email) && /An admin turned off/.test(m.body)),
    );
    expect(mail.body).toContain("The account's 2 passkeys were removed too: they no longer sign in.");
    const noted = t.logLines
      .map((line) => JSON.parse(line))
      .find((l) => l.msg === "two-factor sign-in reset by an admin" && l.uid === session.user.uid);
    expect(noted).toMatchObject({ by: admin.user.uid, passkeysRemoved: 2 });
  });

  it("is a signed-in admin's act: an admin API token and one's own account are refused", async () => {
    const { session } = await enrolledStaff();
    const token = await request(t.app)
      .post("/api/users/me/tokens")
      .set(bearer(admin.accessToken))
      .send({ name: "admin script", scope: "admin", expiresAt: null });
    expect(token.status).toBe(201);
    const byToken = await request(t.app)
      .delete(`/api/users/${session.user.uid}/two-factor`)
      .set(bearer(token.body.token));
    expect(byToken.status).toBe(403);
    await enrol(t.app, admin.accessToken);
    const own = await request(t.app).delete(`/api/users/${admin.user.uid}/two-factor`).set(bearer(admin.accessToken));
    expect([own.status, own.body.message]).toEqual([409, "Turn your own two-factor sign-in off in Security"]);
    expect((await request(t.app).get("/api/users/me/two-factor").set(bearer(admin.accessToken))).body.enabled).toBe(
      true,
    );
    const shown = await request(t.app).get(`/api/users/${session.user.uid}`).set(bearer(admin.accessToken));
    expect(shown.body.twoFactor).toBe(true);
  });
});

describe("the sign-in budgets", () => {
  it("count wrong codes exactly like wrong passwords, on the same account budget", async () => {
    await spendingTheAccountBudget(async (limited, owner) => {
      const { secret } = await enrol(limited.app, owner.accessToken);
      const wrongPassword = await request(limited.app)
        .post("/api/auth/login")
        .send({ email: BUDGET_OWNER.email, password: "nope" });
      expect(wrongPassword.status).toBe(401);
      // The right password gives its own count back; the budget holds one failure.
      const challenge = await challengeFor(limited.app, BUDGET_OWNER.email, BUDGET_OWNER.password);
      // The next step's: the current one's was taken by the enrolment, a replay refused whenever judged.
      const right = nextCode(secret);
      const wrong = ["000000", "111111", "222222"].filter((c) => c !== right && c !== codeAt(secret));
      expect((await secondStep(limited.app, { challenge, code: wrong[0] })).status).toBe(401);
      expect((await secondStep(limited.app, { challenge, code: wrong[1] })).status).toBe(401);
      // Three failures: the right code is not judged, nor is the right password.
      const refused = await secondStep(limited.app, { challenge, code: right });
      expect(refused.status).toBe(429);
      expect(refused.headers["retry-after"]).toEqual(expect.any(String));
    });
  });
});

describe("what the log never holds", () => {
  it("holds no secret, code, recovery code or challenge", async () => {
    const { email, password, secret, recoveryCodes } = await enrolledStaff();
    const challenge = await challengeFor(t.app, email, password);
    await secondStep(t.app, { challenge, recoveryCode: recoveryCodes[3] });
    const log = t.logLines.join("");
    for (const text of [secret, challenge, ...recoveryCodes]) expect(log).not.toContain(text);
  });
});
