import request from "supertest";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { loadConfig } from "../config";
import { createTestApp, createUser, type TestApp, type TestUser } from "../test/harness";
import { until } from "../test/wait";
import { useApiToken } from "./api-tokens.service";
import { isApiToken, newApiToken } from "./token-format";

let t: TestApp;
let staff: TestUser;
let admin: TestUser;

beforeAll(async () => {
  t = await createTestApp({}, { captureLog: true });
  staff = await createUser(t.ctx);
  admin = await createUser(t.ctx, { role: "admin" });
});
afterAll(() => t?.close());

const api = () => request(t.app);
const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

async function tokenFor(user: TestUser, scope: string, expiresAt: string | null = null) {
  const res = await api()
    .post("/api/users/me/tokens")
    .set(user.auth)
    .send({ name: `${scope} script`, scope, expiresAt });
  expect(res.status).toBe(201);
  return res.body as { id: number; token: string };
}

describe("API tokens", () => {
  it("are made once, shown once in a scanner-friendly form, and only their hash is kept", async () => {
    const res = await api()
      .post("/api/users/me/tokens")
      .set(staff.auth)
      .send({ name: "Booking form", scope: "write", expiresAt: "2099-01-01T00:00:00+01:00" });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.any(Number),
      name: "Booking form",
      scope: "write",
      expiresAt: "2098-12-31T23:00:00.000Z",
      createdAt: expect.any(String),
      token: expect.stringMatching(/^pd_[0-9A-Za-z]{49}$/),
    });
    expect(isApiToken(res.body.token)).toBe(true);
    const stored = await t.ctx.db("api_tokens").where({ id: res.body.id }).first();
    expect(JSON.stringify(stored)).not.toContain(res.body.token.slice(3));

    const list = await api().get("/api/users/me/tokens").set(staff.auth);
    expect(list.headers["x-total-count"]).toBe(String(list.body.length));
    const listed = list.body.find((token: { id: number }) => token.id === res.body.id);
    expect(listed).toEqual({
      id: res.body.id,
      name: "Booking form",
      scope: "write",
      prefix: res.body.token.slice(0, 11),
      expiresAt: "2098-12-31T23:00:00.000Z",
      createdAt: res.body.createdAt,
      lastUsedAt: null,
      lastUsedAddress: null,
      owner: { uid: staff.uid, email: staff.email },
    });
    expect(JSON.stringify(list.body)).not.toContain(res.body.token);
    // Another user's list does not show it.
    const theirs = await api().get("/api/users/me/tokens").set(admin.auth);
    expect(theirs.body.map((token: { id: number }) => token.id)).not.toContain(res.body.id);
  });

  it("refuse bad requests with a 400 naming the field, and admin tokens to staff", async () => {
    const post = (body: object) => api().post("/api/users/me/tokens").set(staff.auth).send(body);
    const cases: Array<[object, string]> = [
      [{ scope: "read", expiresAt: null }, "name"],
      [{ name: "x\ny", scope: "read", expiresAt: null }, "name"],
      [{ name: "x", scope: "everything", expiresAt: null }, "scope"],
      [{ name: "x", scope: "read", expiresAt: "2000-01-01T00:00:00Z" }, "expiresAt"],
      [{ name: "x", scope: "read", expiresAt: "tomorrow" }, "expiresAt"],
      [{ name: "x", scope: "read" }, "expiresAt"],
    ];
    for (const [body, field] of cases) {
      const res = await post(body);
      expect([JSON.stringify(body), res.status]).toEqual([JSON.stringify(body), 400]);
      expect(res.body.errors).toHaveProperty(field);
    }
    expect((await post({ name: "x", scope: "read", expiresAt: null, owner: "me" })).status).toBe(400);
    const adminScope = await post({ name: "x", scope: "admin", expiresAt: null });
    expect(adminScope.status).toBe(403);
    expect(adminScope.body.message).toBe("Only admins may create admin tokens");
  });

  it("let scripts in as far as their scope goes", async () => {
    const read = await tokenFor(staff, "read");
    const write = await tokenFor(staff, "write");
    const adminToken = await tokenFor(admin, "admin");
    const adminWrite = await tokenFor(admin, "write");

    expect((await api().get("/api/projects").set(bearer(read.token))).status).toBe(200);
    expect((await api().head("/api/clients").set(bearer(read.token))).status).toBe(200);
    const refused = await api().post("/api/clients").set(bearer(read.token)).send({ name: "Lima" });
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe("This API token's scope is read: it may only read (GET)");

    const client = await api().post("/api/clients").set(bearer(write.token)).send({ name: "Lima" });
    expect(client.status).toBe(201);
    const project = await api()
      .post("/api/projects")
      .set(bearer(write.token))
      .send({ name: "Lima Wedding", clientId: client.body.id });
    expect(project.status).toBe(201);

    // Admin routes: only an admin's admin token.
    const notAdmin = await api().get("/api/users").set(bearer(adminWrite.token));
    expect([notAdmin.status, notAdmin.body.message]).toEqual([
      403,
      "This API token's scope is write: admin routes need an admin token",
    ]);
    expect((await api().get("/api/users").set(bearer(write.token))).status).toBe(403);
    expect((await api().get("/api/users").set(bearer(adminToken.token))).status).toBe(200);

    // Tokens are managed by a person signed in, not by a token.
    for (const token of [write.token, adminToken.token]) {
      const made = await api()
        .post("/api/users/me/tokens")
        .set(bearer(token))
        .send({ name: "x", scope: "read", expiresAt: null });
      expect(made.status).toBe(403);
      expect((await api().get("/api/tokens").set(bearer(adminToken.token))).status).toBe(403);
    }
  });

  it("refuse a malformed, mistyped or unknown token with a 401", async () => {
    const real = await tokenFor(staff, "read");
    const mistyped = real.token.slice(0, 20) + (real.token[20] === "a" ? "b" : "a") + real.token.slice(21);
    for (const token of ["pd_short", mistyped, newApiToken()]) {
      const res = await api().get("/api/projects").set(bearer(token));
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ statusCode: 401, message: "Invalid or expired API token" });
    }
  });

  it("stop on the next request when deleted (by the owner or an admin), expired, or the owner revoked or demoted", async () => {
    const works = async (token: string) => (await api().get("/api/projects").set(bearer(token))).status;

    const deleted = await tokenFor(staff, "read");
    expect(await works(deleted.token)).toBe(200);
    expect((await api().delete(`/api/users/me/tokens/${deleted.id}`).set(staff.auth)).status).toBe(204);
    expect(await works(deleted.token)).toBe(401);
    // Someone else's token: not found for them; an admin can.
    const other = await tokenFor(staff, "read");
    expect((await api().delete(`/api/users/me/tokens/${other.id}`).set(admin.auth)).status).toBe(404);
    expect(await works(other.token)).toBe(200);
    const everyone = await api().get("/api/tokens").set(admin.auth);
    expect(everyone.body.map((token: { id: number }) => token.id)).toContain(other.id);
    expect((await api().get("/api/tokens").set(staff.auth)).status).toBe(403);
    expect((await api().delete(`/api/tokens/${other.id}`).set(admin.auth)).status).toBe(204);
    expect(await works(other.token)).toBe(401);

    const soon = await tokenFor(staff, "read", new Date(Date.now() + 1500).toISOString());
    expect(await works(soon.token)).toBe(200);
    // Past its expiry (the clock moved on, not waited for): nothing announces it, the next request finds it out.
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + 1600, shouldAdvanceTime: true });
    try {
      expect(await works(soon.token)).toBe(401);
    } finally {
      vi.useRealTimers();
    }

    const revokedOwner = await createUser(t.ctx);
    const revokable = await tokenFor(revokedOwner, "write");
    expect(await works(revokable.token)).toBe(200);
    const revoke = await api().patch(`/api/users/${revokedOwner.uid}`).set(admin.auth).send({ hasAccess: false });
    expect(revoke.status).toBe(200);
    expect(await works(revokable.token)).toBe(401);

    const formerAdmin = await createUser(t.ctx, { role: "admin" });
    const adminToken = await tokenFor(formerAdmin, "admin");
    const writeToken = await tokenFor(formerAdmin, "write");
    expect(await works(adminToken.token)).toBe(200);
    expect((await api().patch(`/api/users/${formerAdmin.uid}`).set(admin.auth).send({ role: "staff" })).status).toBe(
      200,
    );
    expect(await works(adminToken.token)).toBe(401);
    // Demoted below an admin token's scope only: their write token still works.
    expect(await works(writeToken.token)).toBe(200);
  });

  it("note their last use (time and address) and keep the token out of the log", async () => {
    const used = await tokenFor(staff, "read");
    expect((await api().get("/api/projects").set(bearer(used.token))).status).toBe(200);
    const listed = await until(
      async () => (await api().get("/api/users/me/tokens").set(staff.auth)).body as Array<Record<string, unknown>>,
      (list) => list.some((token) => token.id === used.id && token.lastUsedAt !== null),
    );
    const entry = listed.find((token) => token.id === used.id)!;
    expect(entry.lastUsedAddress).toMatch(/127\.0\.0\.1|::1/);
    expect(Date.parse(String(entry.lastUsedAt))).toBeGreaterThan(Date.now() - 60_000);
    expect(t.logLines.join("\n")).not.toContain(used.token.slice(3, 20));
  });

  it("hold each token to API_TOKEN_REQUESTS_PER_MINUTE requests a minute in a process, with Retry-After", () => {
    const refusal = (use: () => void) => {
      try {
        use();
      } catch (err) {
        return err;
      }
    };
    expect(t.ctx.config.apiTokenRequestsPerMinute).toBe(600);
    const now = 1_000_000;
    for (let i = 0; i < 600; i += 1) useApiToken(t.ctx, 999_001, null, now + i);
    expect(refusal(() => useApiToken(t.ctx, 999_001, null, now + 30_000))).toMatchObject({
      statusCode: 429,
      headers: { "Retry-After": "30" },
    });
    // Another token has its own budget, and the next minute starts afresh.
    expect(() => useApiToken(t.ctx, 999_002, null, now + 30_000)).not.toThrow();
    expect(() => useApiToken(t.ctx, 999_001, null, now + 60_000)).not.toThrow();

    // The setting: a context of its own (its own counts) holding tokens to 5. Times under a minute
    // from 0, so no last use is due to be written.
    const five = { ...t.ctx, config: { ...t.ctx.config, apiTokenRequestsPerMinute: 5 } };
    for (let i = 0; i < 5; i += 1) useApiToken(five, 999_003, null, i);
    expect(refusal(() => useApiToken(five, 999_003, null, 15_000))).toMatchObject({
      statusCode: 429,
      headers: { "Retry-After": "45" },
    });
    expect(loadConfig({ API_TOKEN_REQUESTS_PER_MINUTE: "5" }).apiTokenRequestsPerMinute).toBe(5);
    for (const bad of ["0", "1.5", "many"])
      expect(() => loadConfig({ API_TOKEN_REQUESTS_PER_MINUTE: bad })).toThrow(/API_TOKEN_REQUESTS_PER_MINUTE/);
  });
});
