import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bearer, RELAXED_LIMITS, type SessionBody } from "../auth/auth-test-helpers";
import { expectMatchesContract } from "../openapi/contract";
import { createTestApp, type TestApp } from "../test/harness";
import { startSmtpInbox, type SmtpInbox } from "../test/smtp-inbox";
import { eventually } from "../test/wait";
import {
  approvedAccount,
  BUDGET_OWNER,
  codeAt,
  enrol,
  nextCode,
  spendingTheAccountBudget,
} from "../two-factor/two-factor-test-helpers";
import { LOCAL, softwarePasskey } from "./passkey-test-helpers";

const OPTIONS = "/api/users/me/passkeys/registration-options";
const CHROME = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";

let t: TestApp;
let smtp: SmtpInbox;
let admin: SessionBody;
let n = 0;

beforeAll(async () => {
  smtp = await startSmtpInbox();
  t = await createTestApp({ ...RELAXED_LIMITS, SMTP_URL: smtp.url });
  admin = await approvedAccount(t.app, "admin@studio.test", "adminpass1");
});
afterAll(async () => {
  await t.close();
  await smtp.close();
});

const staff = () => approvedAccount(t.app, `staff${++n}@studio.test`, "staffpass1", admin);
const askOptions = (app: TestApp["app"], who: SessionBody, body?: object) => {
  const req = request(app).post(OPTIONS).set(LOCAL).set(bearer(who.accessToken));
  return body ? req.send(body) : req;
};

describe("adding a passkey asks again who is there", () => {
  it("refuses without a proof, with both, and with a wrong password or code, each saying which", async () => {
    const who = await staff();
    const none = await askOptions(t.app, who);
    expectMatchesContract(none, "post", OPTIONS);
    expect(none.status).toBe(400);
    expect((await askOptions(t.app, who, { password: "staffpass1", code: "123456" })).status).toBe(400);

    const wrongPassword = await askOptions(t.app, who, { password: "not-it" });
    expectMatchesContract(wrongPassword, "post", OPTIONS);
    expect(wrongPassword.body).toEqual({
      statusCode: 403,
      message: "The password is not right",
      errors: { password: "Wrong password" },
    });
    const { secret } = await enrol(t.app, who.accessToken);
    const wrong = ["000000", "111111"].find((c) => c !== codeAt(secret) && c !== codeAt(secret, Date.now() + 30_000));
    const wrongCode = await askOptions(t.app, who, { code: wrong });
    expect(wrongCode.status).toBe(403);
    expect(wrongCode.body.errors).toEqual({ code: "Wrong or already used code" });
  });

  it("answers the options for the password, or for a current two-factor code used once", async () => {
    const who = await staff();
    expect((await askOptions(t.app, who, { password: "staffpass1" })).status).toBe(200);
    const { secret } = await enrol(t.app, who.accessToken);
    const code = nextCode(secret);
    const byCode = await askOptions(t.app, who, { code });
    expect(byCode.status).toBe(200);
    expect(byCode.body.challenge).toEqual(expect.any(String));
    // A code is accepted once: a session holder watching it cannot use it again.
    expect((await askOptions(t.app, who, { code })).status).toBe(403);
  });

  it("counts a wrong proof on the account's sign-in budget, as a wrong password at sign-in", async () => {
    await spendingTheAccountBudget(async (limited, owner) => {
      // A right proof gives its count back.
      expect((await askOptions(limited.app, owner, { password: BUDGET_OWNER.password })).status).toBe(200);
      for (const password of ["one", "two", "three"])
        expect((await askOptions(limited.app, owner, { password })).status).toBe(403);
      const refused = await askOptions(limited.app, owner, { password: BUDGET_OWNER.password });
      expect(refused.status).toBe(429);
    });
  });
});

describe("a passkey added", () => {
  it("is mailed to the user, naming it and where it was added from", async () => {
    const who = await staff();
    const options = await askOptions(t.app, who, { password: "staffpass1" });
    const key = softwarePasskey();
    const added = await request(t.app)
      .post("/api/users/me/passkeys")
      .set(LOCAL)
      .set("User-Agent", CHROME)
      .set(bearer(who.accessToken))
      .send({ name: "Work laptop", response: key.attest(options.body.challenge) });
    expect(added.status, JSON.stringify(added.body)).toBe(201);
    const mail = await eventually(() =>
      smtp.mails.find((m) => m.to.includes(who.user.email) && /A passkey named/.test(m.body)),
    );
    expect(mail.body).toContain('"Work laptop"');
    expect(mail.body).toContain("Chrome 131 on Linux");
    expect(mail.body).toContain("http://localhost:4000/");
  });
});
