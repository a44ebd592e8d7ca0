import request from "supertest";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createTestApp, createUser, type TestApp, type TestUser } from "../test/harness";
import { RELAXED_LIMITS, bearer, signUp } from "../auth/auth-test-helpers";
import { insertResetToken } from "../auth/password-reset.repository";
import { hashSecretToken, newSecretToken, secondsFromNow } from "../auth/secret-tokens";
import { EventBus } from "../events/bus";
import { SIGNED_IN_USER_TTL_MS, SignedInUsers } from "./signed-in-users";
import type { User } from "../../api/types";

let t: TestApp;
let admin: TestUser;
let staff: TestUser;
beforeEach(async () => {
  t = await createTestApp(RELAXED_LIMITS);
  admin = await createUser(t.ctx, { role: "admin", email: "boss@studio.test" });
  staff = await createUser(t.ctx, { email: "staff@studio.test" });
});
afterEach(() => t.close());

const projects = (user: { auth: Record<string, string> }) => request(t.app).get("/api/projects").set(user.auth);

describe("signed-in users kept in memory", () => {
  it("is on: a row changed behind the server's back is not read again within the safety expiry", async () => {
    expect((await projects(staff)).status).toBe(200);
    await t.ctx.db("users").where({ uid: staff.uid }).update({ has_access: false });
    expect((await projects(staff)).status).toBe(200);
  });

  it("a revoked user's very next call is 403", async () => {
    expect((await projects(staff)).status).toBe(200);
    const revoke = await request(t.app).patch(`/api/users/${staff.uid}`).set(admin.auth).send({ hasAccess: false });
    expect(revoke.status).toBe(200);
    const next = await projects(staff);
    expect(next.status).toBe(403);
    expect(next.body).toMatchObject({ statusCode: 403, message: "Access not approved" });
  });

  it("approval and a role change apply on the next call", async () => {
    const waiting = await createUser(t.ctx, { hasAccess: false, email: "waiting@studio.test" });
    expect((await projects(waiting)).status).toBe(403);
    expect(
      (await request(t.app).patch(`/api/users/${waiting.uid}`).set(admin.auth).send({ hasAccess: true })).status,
    ).toBe(200);
    expect((await projects(waiting)).status).toBe(200);

    expect((await request(t.app).get("/api/users").set(staff.auth)).status).toBe(403);
    expect((await request(t.app).patch(`/api/users/${staff.uid}`).set(admin.auth).send({ role: "admin" })).status).toBe(
      200,
    );
    expect((await request(t.app).get("/api/users").set(staff.auth)).status).toBe(200);
    expect((await request(t.app).patch(`/api/users/${staff.uid}`).set(admin.auth).send({ role: "staff" })).status).toBe(
      200,
    );
    expect((await request(t.app).get("/api/users").set(staff.auth)).status).toBe(403);
  });

  it("a reset password's old access token is refused at once", async () => {
    const session = await signUp(t.app, "lena@studio.test", "oldpass1");
    expect((await request(t.app).get("/api/users/me").set(bearer(session.accessToken))).status).toBe(200);
    const link = newSecretToken();
    await insertResetToken(t.ctx.db, {
      uid: session.user.uid,
      hash: hashSecretToken(link.token),
      expiresAt: secondsFromNow(3600),
    });
    const confirm = await request(t.app)
      .post("/api/auth/password-reset/confirm")
      .send({ token: link.token, password: "newpass2" });
    expect(confirm.status).toBe(204);
    const old = await request(t.app).get("/api/users/me").set(bearer(session.accessToken));
    expect(old.status).toBe(401);
  });
});

describe("SignedInUsers", () => {
  const user = { uid: "u1", role: "staff", hasAccess: true } as User;

  it("never keeps a token beyond its expiry, nor anything beyond the safety expiry", () => {
    const cache = new SignedInUsers(new EventBus());
    const now = 1_000_000;
    cache.set("short", { user }, now + 1000, cache.version("u1"), now);
    cache.set("long", { user }, now + 3600_000, cache.version("u1"), now);
    expect(cache.get("short", now + 999)?.user).toBe(user);
    expect(cache.get("short", now + 1000)).toBeUndefined();
    expect(cache.get("long", now + SIGNED_IN_USER_TTL_MS - 1)?.user).toBe(user);
    expect(cache.get("long", now + SIGNED_IN_USER_TTL_MS)).toBeUndefined();
    cache.set("dead", { user }, now - 1, cache.version("u1"), now);
    expect(cache.get("dead", now - 2)).toBeUndefined();
  });

  it("drops a user's tokens on the bus's announcement, and does not store a read that started before it", () => {
    const events = new EventBus();
    const cache = new SignedInUsers(events);
    const now = Date.now();
    cache.set("a", { user }, now + 60_000, cache.version("u1"), now);
    const before = cache.version("u1");
    events.resourceChanged({ resource: "users", type: "updated", ids: ["u1"] });
    expect(cache.get("a", now)).toBeUndefined();
    cache.set("b", { user }, now + 60_000, before, now);
    expect(cache.get("b", now)).toBeUndefined();
    events.userChanged("u1");
    cache.set("c", { user }, now + 60_000, cache.version("u1"), now);
    expect(cache.get("c", now)?.user).toBe(user);
  });
});
