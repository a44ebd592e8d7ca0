import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, createUser, type TestApp, type TestUser } from "../test/harness";
import { insertClientRow } from "../test/rows";
import { INVALID_EMAILS, INVALID_PHONES, VALID_EMAILS, VALID_PHONES } from "../test/address-examples";
import { INVALID_EMAIL, INVALID_PHONE, isEmailAddress, isPhoneNumber } from "../../api/validation";

let t: TestApp;
let user: TestUser;
let clientId: number;

beforeAll(async () => {
  t = await createTestApp({ RATE_LIMIT_PER_IP: "1000" });
  user = await createUser(t.ctx);
  clientId = await insertClientRow(t.ctx, "Rules Client");
});
afterAll(() => t.close());

const addContact = (body: object) =>
  request(t.app)
    .post("/api/contacts")
    .set(user.auth)
    .send({ name: "Mia Lind", clientId, ...body });

describe("the shared e-mail rule", () => {
  it.each(VALID_EMAILS)("takes %s, in the rule and in a contact", async (email) => {
    expect(isEmailAddress(email)).toBe(true);
    const res = await addContact({ email });
    expect(res.status).toBe(201);
    expect(res.body.email).toBe(email);
  });

  it.each(INVALID_EMAILS)("refuses %j, in the rule and with 400 for a contact", async (email) => {
    expect(isEmailAddress(email)).toBe(false);
    const res = await addContact({ email });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual({ email: INVALID_EMAIL });
  });

  it("refuses a sign-up with an address mail cannot reach, and takes one it can", async () => {
    const refused = await request(t.app).post("/api/auth/signup").send({ email: "mia@", password: "secret-password" });
    expect(refused.status).toBe(400);
    expect(refused.body.errors).toEqual({ email: INVALID_EMAIL });
    expect(await t.ctx.db("users").where({ email: "mia@" })).toHaveLength(0);
    const taken = await request(t.app)
      .post("/api/auth/signup")
      .send({ email: "Mia@Studio.test", password: "secret-password" });
    expect(taken.status).toBe(201);
  });
});

describe("the shared phone rule", () => {
  it.each(VALID_PHONES)("takes %s for a contact and a profile", async (phoneNumber) => {
    expect(isPhoneNumber(phoneNumber)).toBe(true);
    expect((await addContact({ phoneNumber })).status).toBe(201);
    const me = await request(t.app).patch("/api/users/me").set(user.auth).send({ phoneNumber });
    expect(me.status).toBe(200);
    expect(me.body.phoneNumber).toBe(phoneNumber);
  });

  it.each(INVALID_PHONES)("refuses %j for a contact and a profile with 400", async (phoneNumber) => {
    expect(isPhoneNumber(phoneNumber)).toBe(false);
    const contact = await addContact({ phoneNumber });
    expect(contact.status).toBe(400);
    expect(contact.body.errors).toEqual({ phoneNumber: INVALID_PHONE });
    const me = await request(t.app).patch("/api/users/me").set(user.auth).send({ phoneNumber });
    expect(me.status).toBe(400);
    expect(me.body.errors).toEqual({ phoneNumber: INVALID_PHONE });
  });
});
