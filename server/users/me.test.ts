import request from "supertest";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createTestApp, createUser, type TestApp, type TestUser } from "../test/harness";

let t: TestApp;
let pending: TestUser;
let approved: TestUser;
beforeEach(async () => {
  t = await createTestApp();
  pending = await createUser(t.ctx, { hasAccess: false, email: "pending@studio.test" });
  approved = await createUser(t.ctx, { email: "approved@studio.test" });
});
afterEach(() => t.close());

const row = (uid: string) => t.ctx.db("users").where({ uid }).first();

describe("GET /api/users/me", () => {
  it("answers the signed-in user in the contract's shape", async () => {
    const res = await request(t.app).get("/api/users/me").set(pending.auth);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      uid: pending.uid,
      email: "pending@studio.test",
      displayName: null,
      emailVerified: false,
      phoneNumber: null,
      photoURL: null,
      providerData: [],
      role: "staff",
      hasAccess: false,
      language: "en",
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
  });

  it("refuses a call without a token", async () => {
    expect((await request(t.app).get("/api/users/me")).status).toBe(401);
  });
});

describe("PUT and PATCH /api/users/me", () => {
  it("changes the display name and phone number, trimmed", async () => {
    const res = await request(t.app)
      .put("/api/users/me")
      .set(pending.auth)
      .send({ displayName: "  Pat Doe ", phoneNumber: "+44 20 1234" });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ displayName: "Pat Doe", phoneNumber: "+44 20 1234" });
    expect(await row(pending.uid)).toMatchObject({ display_name: "Pat Doe", phone_number: "+44 20 1234" });
  });

  it("PATCH changes only the fields given; blank clears a field", async () => {
    await request(t.app).put("/api/users/me").set(approved.auth).send({ displayName: "Al", phoneNumber: "123" });
    const res = await request(t.app).patch("/api/users/me").set(approved.auth).send({ phoneNumber: "  " });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ displayName: "Al", phoneNumber: null });
  });

  it("ignores any other field, so nobody can grant themself access, a role or another e-mail", async () => {
    const res = await request(t.app)
      .put("/api/users/me")
      .set(pending.auth)
      .send({ displayName: "Sneaky", role: "admin", hasAccess: true, email: "boss@studio.test", emailVerified: true });
    expect(res.status).toBe(200);
    expect(await row(pending.uid)).toMatchObject({
      display_name: "Sneaky",
      role: "staff",
      email: "pending@studio.test",
    });
    expect(Boolean((await row(pending.uid)).has_access)).toBe(false);
    expect((await request(t.app).get("/api/clients").set(pending.auth)).status).toBe(403);
  });

  it("refuses a display name over 200 characters or of the wrong type, changing nothing", async () => {
    const long = await request(t.app)
      .put("/api/users/me")
      .set(approved.auth)
      .send({ displayName: "x".repeat(201) });
    expect(long.status).toBe(400);
    expect(long.body.message).toBe("Display name must be at most 200 characters");
    const wrong = await request(t.app).put("/api/users/me").set(approved.auth).send({ phoneNumber: 42 });
    expect(wrong.status).toBe(400);
    expect(wrong.body.errors).toEqual({ phoneNumber: "Phone number must be text" });
    expect((await row(approved.uid)).display_name).toBeNull();
  });

  it("remembers the web app's language, answered by GET /api/users/me and the next sign-in", async () => {
    const res = await request(t.app).patch("/api/users/me").set(approved.auth).send({ language: "de" });
    expect(res.status).toBe(200);
    expect(res.body.language).toBe("de");
    expect((await request(t.app).get("/api/users/me").set(approved.auth)).body.language).toBe("de");
    expect(await row(approved.uid)).toMatchObject({ language: "de" });
    const other = await request(t.app).patch("/api/users/me").set(approved.auth).send({ displayName: "Al" });
    expect(other.body.language).toBe("de");
  });

  it("refuses a language the web app is not shipped in, changing nothing", async () => {
    for (const language of ["fr", "DE", "", null, 1]) {
      const res = await request(t.app).patch("/api/users/me").set(approved.auth).send({ language });
      expect(res.status).toBe(400);
      expect(res.body.message).toBe("Language must be one of en, de");
    }
    expect(await row(approved.uid)).toMatchObject({ language: "en" });
  });

  it("refuses a body that is not an object", async () => {
    const res = await request(t.app).put("/api/users/me").set(approved.auth).send(["displayName"]);
    expect(res.status).toBe(400);
  });
});

describe("access", () => {
  it("answers hasAccess and the role for approved and unapproved users", async () => {
    expect((await request(t.app).get("/api/users/me/access").set(pending.auth)).body).toEqual({
      hasAccess: false,
      role: "staff",
    });
    expect((await request(t.app).get("/api/users/me/access").set(approved.auth)).body).toEqual({
      hasAccess: true,
      role: "staff",
    });
  });

  it("records an access request with its trimmed message, then updates it on a second request", async () => {
    const first = await request(t.app)
      .post("/api/users/me/request-access")
      .set(pending.auth)
      .send({ message: "  I shoot weddings.  " });
    expect(first.status).toBe(201);
    expect(first.body).toEqual({
      hasAccess: false,
      accessRequest: { message: "I shoot weddings.", createdAt: expect.any(String) },
    });
    const second = await request(t.app)
      .post("/api/users/me/request-access")
      .set(pending.auth)
      .send({ message: "Second try" });
    expect(second.status).toBe(200);
    expect(second.body.accessRequest.message).toBe("Second try");
    const rows = await t.ctx.db("access_requests").where({ user_uid: pending.uid });
    expect(rows).toHaveLength(1);
    expect(rows[0].message).toBe("Second try");
  });

  it("takes a request without a body or with a blank message as no message", async () => {
    const res = await request(t.app).post("/api/users/me/request-access").set(pending.auth);
    expect(res.status).toBe(201);
    expect(res.body.accessRequest.message).toBeNull();
    const blank = await request(t.app).post("/api/users/me/request-access").set(pending.auth).send({ message: "   " });
    expect(blank.body.accessRequest.message).toBeNull();
  });

  it("refuses a message over 1000 characters and records nothing", async () => {
    const res = await request(t.app)
      .post("/api/users/me/request-access")
      .set(pending.auth)
      .send({ message: "x".repeat(1001) });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe("Message must be at most 1000 characters");
    expect(await t.ctx.db("access_requests")).toHaveLength(0);
    const max = await request(t.app)
      .post("/api/users/me/request-access")
      .set(pending.auth)
      .send({ message: "y".repeat(1000) });
    expect(max.status).toBe(201);
  });

  it("records nothing for a user who already has access", async () => {
    const res = await request(t.app).post("/api/users/me/request-access").set(approved.auth).send({ message: "hi" });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ hasAccess: true, accessRequest: null });
    expect(await t.ctx.db("access_requests")).toHaveLength(0);
  });

  it("announces a new request so the admin's user list can refresh", async () => {
    const changes: unknown[] = [];
    t.ctx.events.onResourceChanged((c) => changes.push(c));
    await request(t.app).post("/api/users/me/request-access").set(pending.auth).send({});
    expect(changes).toEqual([{ resource: "users", type: "updated", ids: [pending.uid] }]);
  });
});
