import request from "supertest";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../test/harness";
import { hashSecretToken } from "./secret-tokens";
import { bearer, RELAXED_LIMITS, signUp } from "./auth-test-helpers";

let t: TestApp;
beforeEach(async () => {
  t = await createTestApp(RELAXED_LIMITS);
});
afterEach(() => t.close());

const userRow = (email: string) => t.ctx.db("users").where({ email }).first();

describe("sign-up", () => {
  it("creates an account, answers a session and stores only a scrypt hash of the password", async () => {
    const res = await request(t.app)
      .post("/api/auth/signup")
      .send({ email: "  Ann@Studio.Test ", password: "secret123", displayName: "Ann" });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      expiresIn: 3600,
      user: { email: "ann@studio.test", displayName: "Ann", emailVerified: false },
    });
    expect(res.body.user.providerData).toEqual([{ providerId: "password" }]);
    expect(typeof res.body.accessToken).toBe("string");
    expect(res.body.refreshToken).toMatch(/^[\w-]{43}$/);
    const row = await userRow("ann@studio.test");
    expect(row.password_hash).toMatch(/^scrypt\$/);
    expect(row.password_hash).not.toContain("secret123");
    const stored = await t.ctx.db("refresh_tokens").where({ user_uid: row.uid });
    expect(stored).toHaveLength(1);
    expect(stored[0].token_hash).toBe(hashSecretToken(res.body.refreshToken));
  });

  it("makes the first account of an empty database an approved admin and later ones unapproved staff", async () => {
    const first = await signUp(t.app, "first@studio.test");
    const second = await signUp(t.app, "second@studio.test");
    expect(first.user).toMatchObject({ role: "admin", hasAccess: true });
    expect(second.user).toMatchObject({ role: "staff", hasAccess: false });
    const res = await request(t.app).get("/api/clients").set(bearer(first.accessToken));
    expect(res.status).toBe(200);
  });

  it("makes exactly one admin when several accounts sign up at once on an empty database", async () => {
    const sessions = await Promise.all(Array.from({ length: 6 }, (_, i) => signUp(t.app, `racer${i}@studio.test`)));
    expect(sessions.filter((s) => s.user.role === "admin")).toHaveLength(1);
    const admins = await t.ctx.db("users").where({ role: "admin", has_access: true });
    expect(admins).toHaveLength(1);
  });

  it("does not promote the first account when ADMIN_EMAIL names the admin", async () => {
    const other = await createTestApp({
      ...RELAXED_LIMITS,
      ADMIN_EMAIL: "boss@studio.test",
      ADMIN_PASSWORD: "bosspass1",
    });
    try {
      const first = await signUp(other.app, "early@studio.test");
      expect(first.user).toMatchObject({ role: "staff", hasAccess: false });
    } finally {
      await other.close();
    }
  });

  it("refuses an e-mail already in use, whatever its case, and keeps one row", async () => {
    await signUp(t.app, "dup@studio.test");
    const res = await request(t.app).post("/api/auth/signup").send({ email: "DUP@studio.test", password: "another1" });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ statusCode: 409, message: "Email already in use" });
    expect(await t.ctx.db("users").where({ email: "dup@studio.test" })).toHaveLength(1);
  });

  it("refuses an e-mail without @ and creates nothing", async () => {
    const res = await request(t.app).post("/api/auth/signup").send({ email: "not-an-address", password: "secret123" });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe("Invalid email format");
    expect(res.body.errors).toEqual({ email: "Invalid email format" });
    expect(await t.ctx.db("users").count({ n: "*" }).first()).toEqual({ n: 0 });
  });

  it("refuses a missing password and a body that is not an object", async () => {
    const missing = await request(t.app).post("/api/auth/signup").send({ email: "a@b.test" });
    expect(missing.status).toBe(400);
    expect(missing.body.message).toBe("Password is required");
    const array = await request(t.app).post("/api/auth/signup").send([1, 2]);
    expect(array.status).toBe(400);
    const wrongType = await request(t.app).post("/api/auth/signup").send({ email: 5, password: "secret123" });
    expect(wrongType.status).toBe(400);
    expect(wrongType.body.message).toBe("Email must be text");
  });
});

describe("sign-in", () => {
  it("answers a session for the right password, with the e-mail in any case", async () => {
    const created = await signUp(t.app, "bob@studio.test", "hunter22");
    const res = await request(t.app).post("/api/auth/login").send({ email: " BOB@studio.test", password: "hunter22" });
    expect(res.status).toBe(200);
    expect(res.body.user.uid).toBe(created.user.uid);
    expect(res.body.refreshToken).not.toBe(created.refreshToken);
    const me = await request(t.app).get("/api/users/me").set(bearer(res.body.accessToken));
    expect(me.status).toBe(200);
    expect(me.body.email).toBe("bob@studio.test");
  });

  it("answers the same 401 for a wrong password and for an unknown account", async () => {
    await signUp(t.app, "carol@studio.test", "rightpass");
    const wrong = await request(t.app)
      .post("/api/auth/login")
      .send({ email: "carol@studio.test", password: "wrongpass" });
    const unknown = await request(t.app)
      .post("/api/auth/login")
      .send({ email: "nobody@studio.test", password: "wrongpass" });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(wrong.body).toEqual({ statusCode: 401, message: "Invalid email or password" });
    expect(unknown.body).toEqual(wrong.body);
  });

  it("spends comparable time on an unknown account as on a wrong password", async () => {
    await signUp(t.app, "dave@studio.test", "rightpass");
    const time = async (email: string) => {
      const started = performance.now();
      await request(t.app).post("/api/auth/login").send({ email, password: "wrongpass" });
      return performance.now() - started;
    };
    await time("nobody@studio.test");
    const known: number[] = [];
    const unknown: number[] = [];
    for (let i = 0; i < 4; i++) {
      known.push(await time("dave@studio.test"));
      unknown.push(await time("nobody@studio.test"));
    }
    const median = (xs: number[]) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)];
    // Both paths run one scrypt (tens of milliseconds); without the dummy hash the unknown one takes ~1 ms.
    expect(median(unknown)).toBeGreaterThan(median(known) * 0.3);
  });

  it("refuses a password sign-in for an account that has no password", async () => {
    await t.ctx.db("users").insert({
      uid: "g-only",
      email: "g@studio.test",
      role: "staff",
      has_access: true,
      email_verified: true,
      google_sub: "123",
      created_at: new Date().toISOString(),
      updated_at: new Date().toISOString(),
    });
    const res = await request(t.app).post("/api/auth/login").send({ email: "g@studio.test", password: "anything" });
    expect(res.status).toBe(401);
    expect(res.body.message).toBe("Invalid email or password");
  });
});

describe("refresh and sign-out", () => {
  it("swaps a refresh token for a new session once; the old token stops working", async () => {
    const session = await signUp(t.app, "eve@studio.test");
    const first = await request(t.app).post("/api/auth/refresh").send({ refreshToken: session.refreshToken });
    expect(first.status).toBe(200);
    expect(first.body.user.uid).toBe(session.user.uid);
    expect(first.body.refreshToken).not.toBe(session.refreshToken);
    const me = await request(t.app).get("/api/users/me").set(bearer(first.body.accessToken));
    expect(me.status).toBe(200);
    const again = await request(t.app).post("/api/auth/refresh").send({ refreshToken: session.refreshToken });
    expect(again.status).toBe(401);
  });

  it("revokes the whole family when a rotated token is replayed, so the thief's successor dies too", async () => {
    const session = await signUp(t.app, "frank@studio.test");
    const rotated = await request(t.app).post("/api/auth/refresh").send({ refreshToken: session.refreshToken });
    const replay = await request(t.app).post("/api/auth/refresh").send({ refreshToken: session.refreshToken });
    expect(replay.status).toBe(401);
    const successor = await request(t.app).post("/api/auth/refresh").send({ refreshToken: rotated.body.refreshToken });
    expect(successor.status).toBe(401);
    const live = await t.ctx.db("refresh_tokens").where({ user_uid: session.user.uid }).whereNull("revoked_at");
    expect(live).toHaveLength(0);
  });

  it("keeps other sign-ins alive when one family is revoked", async () => {
    const session = await signUp(t.app, "gina@studio.test");
    const other = await request(t.app)
      .post("/api/auth/login")
      .send({ email: "gina@studio.test", password: "secret123" });
    await request(t.app).post("/api/auth/refresh").send({ refreshToken: session.refreshToken });
    await request(t.app).post("/api/auth/refresh").send({ refreshToken: session.refreshToken });
    const res = await request(t.app).post("/api/auth/refresh").send({ refreshToken: other.body.refreshToken });
    expect(res.status).toBe(200);
  });

  it("lets only one of two simultaneous refreshes with the same token win", async () => {
    const session = await signUp(t.app, "hal@studio.test");
    const answers = await Promise.all(
      [1, 2].map(() => request(t.app).post("/api/auth/refresh").send({ refreshToken: session.refreshToken })),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([200, 401]);
  });

  it("refuses an expired refresh token", async () => {
    const session = await signUp(t.app, "ida@studio.test");
    await t.ctx
      .db("refresh_tokens")
      .where({ token_hash: hashSecretToken(session.refreshToken) })
      .update({ expires_at: new Date(Date.now() - 1000).toISOString() });
    const res = await request(t.app).post("/api/auth/refresh").send({ refreshToken: session.refreshToken });
    expect(res.status).toBe(401);
    expect(res.body.message).toBe("Invalid or expired refresh token");
  });

  it("stores new refresh tokens with REFRESH_TOKEN_TTL as their lifetime", async () => {
    const other = await createTestApp({ ...RELAXED_LIMITS, REFRESH_TOKEN_TTL: "120" });
    try {
      const session = await signUp(other.app, "ttl@studio.test");
      const row = await other.ctx
        .db("refresh_tokens")
        .where({ token_hash: hashSecretToken(session.refreshToken) })
        .first();
      const lifetime = new Date(row.expires_at).getTime() - Date.now();
      expect(lifetime).toBeGreaterThan(110_000);
      expect(lifetime).toBeLessThanOrEqual(120_000);
    } finally {
      await other.close();
    }
  });

  it("refuses an unknown or missing refresh token with 401 and 400", async () => {
    const unknown = await request(t.app).post("/api/auth/refresh").send({ refreshToken: "made-up" });
    expect(unknown.status).toBe(401);
    const missing = await request(t.app).post("/api/auth/refresh").send({});
    expect(missing.status).toBe(400);
    expect(missing.body.message).toBe("Refresh token is required");
  });

  it("signs out: 204, the refresh token is revoked, an unknown token is also 204", async () => {
    const session = await signUp(t.app, "jo@studio.test");
    const out = await request(t.app).post("/api/auth/logout").send({ refreshToken: session.refreshToken });
    expect(out.status).toBe(204);
    const row = await t.ctx
      .db("refresh_tokens")
      .where({ token_hash: hashSecretToken(session.refreshToken) })
      .first();
    expect(row.revoked_at).not.toBeNull();
    const res = await request(t.app).post("/api/auth/refresh").send({ refreshToken: session.refreshToken });
    expect(res.status).toBe(401);
    const unknown = await request(t.app).post("/api/auth/logout").send({ refreshToken: "never-issued" });
    expect(unknown.status).toBe(204);
  });
});

describe("public identity configuration", () => {
  it("answers the password policy, the upload limit and no Google client by default", async () => {
    const res = await request(t.app).get("/api/auth/config");
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      google: null,
      passwordPolicy: {
        minLength: 6,
        maxLength: null,
        requireUppercase: false,
        requireLowercase: false,
        requireNumeric: false,
        requireNonAlphanumeric: false,
      },
      maxUploadBytes: 10 * 1024 * 1024,
      publicUrl: null,
      // supertest names the server by its IP address, where browsers refuse passkeys (server/passkeys/).
      passkeys: { offered: false, reason: expect.stringMatching(/not an IP address/) },
    });
  });

  it("answers the Google client id and a configured policy", async () => {
    const other = await createTestApp({
      GOOGLE_CLIENT_ID: "client-1.apps.test",
      PASSWORD_MIN_LENGTH: "10",
      PASSWORD_MAX_LENGTH: "64",
      PASSWORD_REQUIRE_SYMBOL: "1",
      MAX_UPLOAD_BYTES: "2000000",
    });
    try {
      const res = await request(other.app).get("/api/auth/config");
      expect(res.body.google).toEqual({ clientId: "client-1.apps.test" });
      expect(res.body.passwordPolicy).toMatchObject({ minLength: 10, maxLength: 64, requireNonAlphanumeric: true });
      expect(res.body.maxUploadBytes).toBe(2_000_000);
      const csp = (await request(other.app).get("/api/auth/config")).headers["content-security-policy"];
      expect(csp).toContain("script-src 'self' https://accounts.google.com/gsi/");
      expect(csp).toContain("frame-src https://accounts.google.com/gsi/");
      expect(csp).toMatch(/(^|;)connect-src 'self' https:\/\/accounts\.google\.com\/gsi\/(;|$)/);
    } finally {
      await other.close();
    }
  });

  it("serves the public signing keys, and an access token verifies against them", async () => {
    const { createLocalJWKSet, jwtVerify } = await import("jose");
    const res = await request(t.app).get("/api/auth/jwks.json");
    expect(res.status).toBe(200);
    expect(res.body.keys).toHaveLength(1);
    expect(res.body.keys[0]).toMatchObject({ kty: "EC", crv: "P-256", alg: "ES256", use: "sig" });
    expect(res.body.keys[0].d).toBeUndefined();
    const session = await signUp(t.app, "kim@studio.test");
    const { payload } = await jwtVerify(session.accessToken, createLocalJWKSet(res.body));
    expect(payload.sub).toBe(session.user.uid);
  });

  it("keeps the default CSP free of Google hosts", async () => {
    const res = await request(t.app).get("/api/auth/config");
    expect(res.headers["content-security-policy"]).not.toContain("accounts.google.com");
    expect(res.headers["cross-origin-opener-policy"]).toBe("same-origin");
  });
});
