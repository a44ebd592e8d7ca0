import http from "node:http";
import type { AddressInfo } from "node:net";
import request from "supertest";
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey } from "jose";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../test/harness";
import { bearer, RELAXED_LIMITS, signUp } from "./auth-test-helpers";

const ISSUER = "https://issuer.test";
const CLIENT_ID = "photodrop-test.apps.example";
const KID = "local-key-1";

let issuerKey: CryptoKey;
let jwksServer: http.Server;
let jwksUrl: string;

beforeAll(async () => {
  const { publicKey, privateKey } = await generateKeyPair("RS256", { extractable: true });
  issuerKey = privateKey;
  const jwks = JSON.stringify({ keys: [{ ...(await exportJWK(publicKey)), kid: KID, alg: "RS256", use: "sig" }] });
  jwksServer = http.createServer((_req, res) => res.writeHead(200, { "Content-Type": "application/json" }).end(jwks));
  await new Promise<void>((resolve) => jwksServer.listen(0, "127.0.0.1", resolve));
  jwksUrl = `http://127.0.0.1:${(jwksServer.address() as AddressInfo).port}/certs`;
});
afterAll(() => new Promise<void>((resolve) => jwksServer.close(() => resolve())));

let t: TestApp;
beforeEach(async () => {
  t = await createTestApp({
    ...RELAXED_LIMITS,
    GOOGLE_CLIENT_ID: CLIENT_ID,
    GOOGLE_JWKS_URL: jwksUrl,
    GOOGLE_ISSUER: ISSUER,
  });
});
afterEach(() => t.close());

const now = () => Math.floor(Date.now() / 1000);

function idToken(claims: Record<string, unknown> = {}, key: CryptoKey = issuerKey) {
  return new SignJWT({
    sub: "google-sub-1",
    email: "ruth@gmail.test",
    email_verified: true,
    name: "Ruth Example",
    picture: "https://photos.example/ruth.jpg",
    iss: ISSUER,
    aud: CLIENT_ID,
    iat: now(),
    exp: now() + 600,
    ...claims,
  })
    .setProtectedHeader({ alg: "RS256", kid: KID })
    .sign(key);
}

const google = async (credential: string) => request(t.app).post("/api/auth/google").send({ credential });
const userCount = async () => Number((await t.ctx.db("users").count({ n: "*" }).first())?.n);

describe("Google sign-in", () => {
  it("creates a verified account from a valid ID token, with name and photo, as the first admin", async () => {
    const res = await google(await idToken());
    expect(res.status).toBe(200);
    expect(res.body.user).toMatchObject({
      email: "ruth@gmail.test",
      displayName: "Ruth Example",
      photoURL: "https://photos.example/ruth.jpg",
      emailVerified: true,
      providerData: [{ providerId: "google.com" }],
      role: "admin",
      hasAccess: true,
    });
    const row = await t.ctx.db("users").where({ uid: res.body.user.uid }).first();
    expect(row.google_sub).toBe("google-sub-1");
    expect(row.password_hash).toBeNull();
    expect((await request(t.app).get("/api/users/me").set(bearer(res.body.accessToken))).status).toBe(200);
  });

  it("keeps no name from a token whose name is not one line (it would write lines of the admins' mail)", async () => {
    await signUp(t.app, "owner@studio.test");
    const res = await google(await idToken({ name: "Ruth\n\nURGENT: renew at http://evil.test\u202E" }));
    expect(res.status).toBe(200);
    expect(res.body.user.displayName).toBeNull();
  });

  it("signs the same Google account into the same user next time", async () => {
    const first = await google(await idToken());
    const second = await google(await idToken({ email: "ruth.renamed@gmail.test" }));
    expect(second.status).toBe(200);
    expect(second.body.user.uid).toBe(first.body.user.uid);
    expect(await userCount()).toBe(1);
  });

  it("starts a later Google account as unapproved staff, asking for access", async () => {
    await signUp(t.app, "owner@studio.test");
    const res = await google(await idToken());
    expect(res.body.user).toMatchObject({ role: "staff", hasAccess: false });
    const requests = await t.ctx.db("access_requests").where({ user_uid: res.body.user.uid });
    expect(requests).toHaveLength(1);
  });

  it("links to the account with the same e-mail and drops a password nobody had proven the address for", async () => {
    const existing = await signUp(t.app, "ruth@gmail.test", "squatter1");
    const res = await google(await idToken());
    expect(res.status).toBe(200);
    expect(res.body.user.uid).toBe(existing.user.uid);
    expect(res.body.user.providerData).toEqual([{ providerId: "google.com" }]);
    expect(
      (await request(t.app).post("/api/auth/login").send({ email: "ruth@gmail.test", password: "squatter1" })).status,
    ).toBe(401);
    expect((await request(t.app).post("/api/auth/refresh").send({ refreshToken: existing.refreshToken })).status).toBe(
      401,
    );
    expect(
      (await request(t.app).get("/api/users/me").set("Authorization", `Bearer ${existing.accessToken}`)).status,
    ).toBe(401);
    expect(
      (await request(t.app).get("/api/users/me").set("Authorization", `Bearer ${res.body.accessToken}`)).status,
    ).toBe(200);
  });

  it("keeps the password of a linked account whose e-mail was already verified", async () => {
    const existing = await signUp(t.app, "ruth@gmail.test", "ownpass1");
    await t.ctx.db("users").where({ uid: existing.user.uid }).update({ email_verified: true });
    const res = await google(await idToken());
    expect(res.body.user.providerData).toEqual([{ providerId: "password" }, { providerId: "google.com" }]);
    expect(
      (await request(t.app).post("/api/auth/login").send({ email: "ruth@gmail.test", password: "ownpass1" })).status,
    ).toBe(200);
  });

  it("refuses a token for another client (wrong audience)", async () => {
    const res = await google(await idToken({ aud: "someone-else.apps.example" }));
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ statusCode: 401, message: "Google sign-in failed" });
    expect(await userCount()).toBe(0);
  });

  it("refuses a token from another issuer", async () => {
    const res = await google(await idToken({ iss: "https://accounts.evil.test" }));
    expect(res.status).toBe(401);
    expect(await userCount()).toBe(0);
  });

  it("refuses an expired token", async () => {
    const res = await google(await idToken({ iat: now() - 7200, exp: now() - 3600 }));
    expect(res.status).toBe(401);
    expect(await userCount()).toBe(0);
  });

  it("refuses an account whose e-mail Google has not verified", async () => {
    const res = await google(await idToken({ email_verified: false }));
    expect(res.status).toBe(401);
    expect(res.body.message).toBe("Google sign-in failed: the e-mail address is not verified");
    expect(await userCount()).toBe(0);
  });

  it("refuses a token signed by a key the issuer does not publish, even under its key id", async () => {
    const { privateKey } = await generateKeyPair("RS256");
    const res = await google(await idToken({}, privateKey));
    expect(res.status).toBe(401);
    expect(await userCount()).toBe(0);
  });

  it("refuses a token whose payload was altered after signing", async () => {
    const [header, , signature] = (await idToken()).split(".");
    const payload = Buffer.from(
      JSON.stringify({
        sub: "other",
        email: "boss@studio.test",
        email_verified: true,
        iss: ISSUER,
        aud: CLIENT_ID,
        iat: now(),
        exp: now() + 600,
      }),
    ).toString("base64url");
    const res = await google([header, payload, signature].join("."));
    expect(res.status).toBe(401);
  });

  it("refuses garbage and a missing credential", async () => {
    expect((await google("not-a-jwt")).status).toBe(401);
    const missing = await request(t.app).post("/api/auth/google").send({});
    expect(missing.status).toBe(400);
    expect(missing.body.message).toBe("Credential is required");
  });
});

describe("Google sign-in switched off", () => {
  it("answers 404 when GOOGLE_CLIENT_ID is not set", async () => {
    const off = await createTestApp();
    try {
      const res = await request(off.app)
        .post("/api/auth/google")
        .send({ credential: await idToken() });
      expect(res.status).toBe(404);
      expect(res.body.message).toBe("Google sign-in is not enabled");
    } finally {
      await off.close();
    }
  });
});
