import request from "supertest";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createTestApp, createUser, type TestApp, type TestUser } from "../test/harness";
import { changeUser } from "./users.service";
import { findUserRow, toUser } from "./users.repository";

let t: TestApp;
let admin: TestUser;
let staff: TestUser;
let pending: TestUser;
beforeEach(async () => {
  t = await createTestApp();
  admin = await createUser(t.ctx, { role: "admin", email: "admin@studio.test" });
  staff = await createUser(t.ctx, { email: "staff@studio.test" });
  pending = await createUser(t.ctx, { hasAccess: false, email: "pending@studio.test" });
});
afterEach(() => t.close());

const put = (user: TestUser, uid: string, body: unknown) =>
  request(t.app)
    .put(`/api/users/${uid}`)
    .set(user.auth)
    .send(body as object);
const row = (uid: string) => t.ctx.db("users").where({ uid }).first();

describe("GET /api/users", () => {
  it("lists every user with their access request and X-Total-Count", async () => {
    // A second apart: users made within one millisecond would be ordered by their random uid.
    for (const [i, user] of [admin, staff, pending].entries()) {
      await t.ctx
        .db("users")
        .where({ uid: user.uid })
        .update({ created_at: new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString() });
    }
    await request(t.app).post("/api/users/me/request-access").set(pending.auth).send({ message: "Let me in" });
    const res = await request(t.app).get("/api/users").set(admin.auth);
    expect(res.status).toBe(200);
    expect(res.headers["x-total-count"]).toBe("3");
    expect(res.body.map((u: { email: string }) => u.email)).toEqual([
      "admin@studio.test",
      "staff@studio.test",
      "pending@studio.test",
    ]);
    const waiting = res.body.find((u: { uid: string }) => u.uid === pending.uid);
    expect(waiting).toMatchObject({
      hasAccess: false,
      role: "staff",
      accessRequest: { message: "Let me in", createdAt: expect.any(String) },
    });
    expect(res.body.find((u: { uid: string }) => u.uid === staff.uid).accessRequest).toBeNull();
    expect(res.body[0]).not.toHaveProperty("password_hash");
  });

  it("pages, sorts, searches by e-mail and filters by access and role", async () => {
    const page = await request(t.app).get("/api/users?_start=1&_end=2&_sort=email&_order=desc").set(admin.auth);
    expect(page.headers["x-total-count"]).toBe("3");
    expect(page.body.map((u: { email: string }) => u.email)).toEqual(["pending@studio.test"]);
    const search = await request(t.app).get("/api/users?q=STAFF").set(admin.auth);
    expect(search.body.map((u: { uid: string }) => u.uid)).toEqual([staff.uid]);
    const waiting = await request(t.app).get("/api/users?hasAccess=false").set(admin.auth);
    expect(waiting.body.map((u: { uid: string }) => u.uid)).toEqual([pending.uid]);
    expect(waiting.headers["x-total-count"]).toBe("1");
    const admins = await request(t.app).get("/api/users?role=admin").set(admin.auth);
    expect(admins.body.map((u: { uid: string }) => u.uid)).toEqual([admin.uid]);
  });

  it("refuses an unknown filter or sort with 400", async () => {
    expect((await request(t.app).get("/api/users?password_hash=x").set(admin.auth)).status).toBe(400);
    expect((await request(t.app).get("/api/users?_sort=password_hash").set(admin.auth)).status).toBe(400);
    expect((await request(t.app).get("/api/users?hasAccess=maybe").set(admin.auth)).status).toBe(400);
  });
});

describe("the access filter and the search", () => {
  it("tells approved, pending, revoked and never-asked users apart, and filters by each", async () => {
    const revoked = await createUser(t.ctx, { email: "revoked@studio.test" });
    const silent = await createUser(t.ctx, { hasAccess: false, email: "silent@studio.test" });
    await request(t.app).post("/api/users/me/request-access").set(pending.auth).send({ message: "hi" });
    expect((await put(admin, revoked.uid, { hasAccess: false })).body.access).toBe("revoked");
    const all = await request(t.app).get("/api/users").set(admin.auth);
    const accessOf = Object.fromEntries(all.body.map((u: { email: string; access: string }) => [u.email, u.access]));
    expect(accessOf).toEqual({
      "admin@studio.test": "approved",
      "staff@studio.test": "approved",
      "pending@studio.test": "pending",
      "revoked@studio.test": "revoked",
      "silent@studio.test": "none",
    });
    for (const [access, uid] of [
      ["pending", pending.uid],
      ["revoked", revoked.uid],
      ["none", silent.uid],
    ]) {
      const res = await request(t.app).get(`/api/users?access=${access}&_start=0&_end=10`).set(admin.auth);
      expect(res.body.map((u: { uid: string }) => u.uid)).toEqual([uid]);
      expect(res.headers["x-total-count"]).toBe("1");
    }
    const approved = await request(t.app).get("/api/users?access=approved").set(admin.auth);
    expect(approved.headers["x-total-count"]).toBe("2");
    // A revoked user who asks again is pending; approving clears both.
    await request(t.app).post("/api/users/me/request-access").set(revoked.auth).send({});
    expect((await request(t.app).get(`/api/users/${revoked.uid}`).set(admin.auth)).body.access).toBe("pending");
    expect((await put(admin, revoked.uid, { hasAccess: true })).body.access).toBe("approved");
  });

  it("refuses an unknown access state with 400", async () => {
    const res = await request(t.app).get("/api/users?access=maybe").set(admin.auth);
    expect(res.status).toBe(400);
    expect(res.body.message).toBe("Filter access must be one of approved, pending, revoked, none");
  });

  it("searches by e-mail or display name, case-insensitively, with the total to match", async () => {
    await t.ctx.db("users").where({ uid: staff.uid }).update({ display_name: "Rosa Lind" });
    const byName = await request(t.app).get("/api/users?q=rosa&_start=0&_end=10").set(admin.auth);
    expect(byName.body.map((u: { uid: string }) => u.uid)).toEqual([staff.uid]);
    expect(byName.headers["x-total-count"]).toBe("1");
    const byEmail = await request(t.app).get("/api/users?q=PENDING@").set(admin.auth);
    expect(byEmail.body.map((u: { uid: string }) => u.uid)).toEqual([pending.uid]);
    const literal = await request(t.app).get("/api/users?q=%25").set(admin.auth);
    expect(literal.body).toEqual([]);
  });
});

describe("GET /api/users/:uid", () => {
  it("answers one user, and 404 for an unknown one", async () => {
    const res = await request(t.app).get(`/api/users/${staff.uid}`).set(admin.auth);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ uid: staff.uid, email: "staff@studio.test", accessRequest: null });
    const missing = await request(t.app).get("/api/users/nobody-here").set(admin.auth);
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ statusCode: 404, message: "User not found" });
    expect((await request(t.app).get("/api/users/bad%20uid!").set(admin.auth)).status).toBe(404);
  });
});

describe("approving, revoking and roles", () => {
  it("approval takes effect on the user's very next call and answers their request", async () => {
    await request(t.app).post("/api/users/me/request-access").set(pending.auth).send({ message: "hi" });
    expect((await request(t.app).get("/api/clients").set(pending.auth)).status).toBe(403);
    const changes: unknown[] = [];
    t.ctx.events.onResourceChanged((c) => changes.push(c));
    const res = await put(admin, pending.uid, { hasAccess: true });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ uid: pending.uid, hasAccess: true, accessRequest: null });
    expect(changes).toEqual([{ resource: "users", type: "updated", ids: [pending.uid] }]);
    expect((await request(t.app).get("/api/clients").set(pending.auth)).status).toBe(200);
    expect((await request(t.app).get("/api/users/me/access").set(pending.auth)).body).toEqual({
      hasAccess: true,
      role: "staff",
    });
    expect(await t.ctx.db("access_requests")).toHaveLength(0);
  });

  it("revocation through PATCH gives the user 403 on their very next call, with the same token", async () => {
    expect((await request(t.app).get("/api/clients").set(staff.auth)).status).toBe(200);
    const res = await request(t.app).patch(`/api/users/${staff.uid}`).set(admin.auth).send({ hasAccess: false });
    expect(res.status).toBe(200);
    expect(res.body.hasAccess).toBe(false);
    expect((await request(t.app).get("/api/clients").set(staff.auth)).status).toBe(403);
    expect((await request(t.app).get("/api/users/me").set(staff.auth)).status).toBe(200);
  });

  it("promotion to admin and demotion back apply on the next call", async () => {
    expect((await request(t.app).get("/api/users").set(staff.auth)).status).toBe(403);
    expect((await put(admin, staff.uid, { role: "admin" })).body.role).toBe("admin");
    expect((await request(t.app).get("/api/users").set(staff.auth)).status).toBe(200);
    expect((await put(admin, staff.uid, { role: "staff" })).body.role).toBe("staff");
    expect((await request(t.app).get("/api/users").set(staff.auth)).status).toBe(403);
  });

  it("lets an admin revoke or demote another admin", async () => {
    const second = await createUser(t.ctx, { role: "admin" });
    expect((await put(admin, second.uid, { role: "staff", hasAccess: false })).status).toBe(200);
    expect(await row(second.uid)).toMatchObject({ role: "staff" });
  });

  it("refuses an admin revoking their own access or admin role with 409, changing nothing", async () => {
    const second = await createUser(t.ctx, { role: "admin" });
    const revoke = await put(second, second.uid, { hasAccess: false });
    expect(revoke.status).toBe(409);
    expect(revoke.body).toEqual({ statusCode: 409, message: "You cannot revoke your own access" });
    const demote = await put(second, second.uid, { role: "staff" });
    expect(demote.status).toBe(409);
    expect(demote.body.message).toBe("You cannot remove your own admin role");
    expect(await row(second.uid)).toMatchObject({ role: "admin" });
    expect(Boolean((await row(second.uid)).has_access)).toBe(true);
    expect((await put(second, second.uid, { hasAccess: true, role: "admin" })).status).toBe(200);
  });

  it("never lets the last approved admin lose access or the role, even for an acting admin whose own row changed meanwhile", async () => {
    const second = await createUser(t.ctx, { role: "admin" });
    const staleSecond = toUser((await findUserRow(t.ctx.db, second.uid))!);
    expect((await put(admin, second.uid, { role: "staff" })).status).toBe(200);
    await expect(changeUser(t.ctx, staleSecond, admin.uid, { role: "staff" })).rejects.toMatchObject({
      statusCode: 409,
      message: "The last admin cannot lose access or the admin role",
    });
    await expect(changeUser(t.ctx, staleSecond, admin.uid, { hasAccess: false })).rejects.toMatchObject({
      statusCode: 409,
    });
    expect(await row(admin.uid)).toMatchObject({ role: "admin" });
  });

  it("leaves an approved admin when two admins demote each other at the same moment", async () => {
    const second = await createUser(t.ctx, { role: "admin" });
    const answers = await Promise.all([
      put(admin, second.uid, { role: "staff" }),
      put(second, admin.uid, { role: "staff" }),
    ]);
    expect(answers.map((a) => a.status).filter((s) => s === 200)).toHaveLength(1);
    expect(answers.map((a) => a.status).find((s) => s !== 200)).toBeOneOf([403, 409]);
    expect(await t.ctx.db("users").where({ role: "admin", has_access: true })).toHaveLength(1);
  });

  it("refuses wrong types and unknown roles with 400 and 404 for an unknown user", async () => {
    const wrongType = await put(admin, staff.uid, { hasAccess: "yes" });
    expect(wrongType.status).toBe(400);
    expect(wrongType.body.errors).toEqual({ hasAccess: "hasAccess must be true or false" });
    const wrongRole = await put(admin, staff.uid, { role: "owner" });
    expect(wrongRole.status).toBe(400);
    expect(wrongRole.body.message).toBe("role must be admin or staff");
    expect((await put(admin, "missing-user", { hasAccess: true })).status).toBe(404);
    expect(Boolean((await row(staff.uid)).has_access)).toBe(true);
  });

  it("gives staff 403 on changing users", async () => {
    const res = await put(staff, pending.uid, { hasAccess: true });
    expect(res.status).toBe(403);
    expect(Boolean((await row(pending.uid)).has_access)).toBe(false);
  });
});
