import request from "supertest";
import { exportJWK, generateKeyPair, importJWK, SignJWT, UnsecuredJWT, type CryptoKey, type JWK } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, createUser, type TestApp, type TestUser } from "../test/harness";
import { AUDIENCE, ISSUER } from "./tokens";

let t: TestApp;
let admin: TestUser;
let staff: TestUser;
let pending: TestUser;
let serverKey: { kid: string; privateKey: CryptoKey; publicJwk: JWK };

beforeAll(async () => {
  t = await createTestApp();
  admin = await createUser(t.ctx, { role: "admin" });
  staff = await createUser(t.ctx);
  pending = await createUser(t.ctx, { hasAccess: false });
  const row = await t.ctx.db("signing_keys").first();
  serverKey = {
    kid: row.kid,
    privateKey: (await importJWK(JSON.parse(row.private_jwk), "ES256")) as CryptoKey,
    publicJwk: JSON.parse(row.public_jwk),
  };
});
afterAll(() => t.close());

const nowSeconds = () => Math.floor(Date.now() / 1000);

function claims(overrides: Record<string, unknown> = {}) {
  return { sub: staff.uid, iss: ISSUER, aud: AUDIENCE, iat: nowSeconds(), exp: nowSeconds() + 600, ...overrides };
}

async function signWithServerKey(payload: Record<string, unknown>) {
  return new SignJWT(payload)
    .setProtectedHeader({ alg: "ES256", kid: serverKey.kid, typ: "JWT" })
    .sign(serverKey.privateKey);
}

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");

async function callWith(token: string) {
  return request(t.app).get("/api/clients").set("Authorization", `Bearer ${token}`);
}

describe("access tokens on a protected route", () => {
  it("accepts a token the server signed itself (control for the refusals below)", async () => {
    const res = await callWith(await signWithServerKey(claims()));
    expect(res.status).toBe(200);
  });

  it("refuses a call without any token", async () => {
    const res = await request(t.app).get("/api/clients");
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ statusCode: 401, message: "Authentication required" });
  });

  it("refuses a header that is not a bearer token", async () => {
    const res = await request(t.app).get("/api/clients").set("Authorization", `Basic ${staff.token}`);
    expect(res.status).toBe(401);
  });

  it("refuses an unsigned token (alg none)", async () => {
    const unsigned = new UnsecuredJWT(claims()).encode();
    const res = await callWith(unsigned);
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ statusCode: 401, message: "Invalid or expired token" });
  });

  it("refuses a genuine token whose payload was swapped for another user's", async () => {
    const [header, , signature] = staff.token.split(".");
    const forged = [header, b64(claims({ sub: admin.uid })), signature].join(".");
    const res = await request(t.app).get("/api/users").set("Authorization", `Bearer ${forged}`);
    expect(res.status).toBe(401);
  });

  it("refuses a token signed by another key, even one that claims the server's key id", async () => {
    const { privateKey } = await generateKeyPair("ES256");
    const withServerKid = await new SignJWT(claims())
      .setProtectedHeader({ alg: "ES256", kid: serverKey.kid })
      .sign(privateKey);
    const withoutKid = await new SignJWT(claims()).setProtectedHeader({ alg: "ES256" }).sign(privateKey);
    expect((await callWith(withServerKid)).status).toBe(401);
    expect((await callWith(withoutKid)).status).toBe(401);
  });

  it("refuses an HMAC token keyed with the public key (algorithm confusion)", async () => {
    const secret = new TextEncoder().encode(JSON.stringify(serverKey.publicJwk));
    const token = await new SignJWT(claims()).setProtectedHeader({ alg: "HS256", kid: serverKey.kid }).sign(secret);
    expect((await callWith(token)).status).toBe(401);
  });

  it("refuses an expired token signed with the server's own key", async () => {
    const token = await signWithServerKey(claims({ iat: nowSeconds() - 7200, exp: nowSeconds() - 3600 }));
    expect((await callWith(token)).status).toBe(401);
  });

  it("refuses the server's own signature over a wrong issuer or a wrong audience", async () => {
    expect((await callWith(await signWithServerKey(claims({ iss: "https://evil.test" })))).status).toBe(401);
    expect((await callWith(await signWithServerKey(claims({ aud: "another-api" })))).status).toBe(401);
  });

  it("refuses a token without a subject, and one for an account that no longer exists", async () => {
    const { sub: _sub, ...withoutSub } = claims();
    expect((await callWith(await signWithServerKey(withoutSub))).status).toBe(401);
    expect((await callWith(await signWithServerKey(claims({ sub: "gone-user" })))).status).toBe(401);
  });

  it("refuses a token whose signature bytes were altered", async () => {
    const [header, payload, signature] = staff.token.split(".");
    const flipped = signature.startsWith("A") ? `B${signature.slice(1)}` : `A${signature.slice(1)}`;
    expect((await callWith([header, payload, flipped].join("."))).status).toBe(401);
  });
});

describe("approval and roles", () => {
  it("lets an unapproved user reach only /api/users/me, /access and /request-access", async () => {
    expect((await request(t.app).get("/api/users/me").set(pending.auth)).status).toBe(200);
    expect((await request(t.app).get("/api/users/me/access").set(pending.auth)).body).toEqual({
      hasAccess: false,
      role: "staff",
    });
    expect((await request(t.app).post("/api/users/me/request-access").set(pending.auth).send({})).status).toBe(201);
    for (const path of ["/api/clients", "/api/projects", "/api/contacts", "/api/dashboard/stats", "/api/users"]) {
      const res = await request(t.app).get(path).set(pending.auth);
      expect(res.status, path).toBe(403);
      expect(res.body).toEqual({ statusCode: 403, message: "Access not approved" });
    }
  });

  it("gives an approved staff member 403 on the admin resource", async () => {
    const res = await request(t.app).get("/api/users").set(staff.auth);
    expect(res.status).toBe(403);
    expect(res.body.message).toBe("Admin access required");
  });

  it("lets an approved admin list users", async () => {
    const res = await request(t.app).get("/api/users").set(admin.auth);
    expect(res.status).toBe(200);
  });
});

describe("keys added by another process", () => {
  it("accepts a token signed with a key stored after start, by reloading the key set", async () => {
    const { publicKey, privateKey } = await generateKeyPair("ES256", { extractable: true });
    const kid = "added-later";
    await t.ctx.db("signing_keys").insert({
      kid,
      algorithm: "ES256",
      public_jwk: JSON.stringify({ ...(await exportJWK(publicKey)), kid, alg: "ES256", use: "sig" }),
      private_jwk: JSON.stringify({ ...(await exportJWK(privateKey)), kid, alg: "ES256" }),
      created_at: new Date().toISOString(),
    });
    const token = await new SignJWT(claims()).setProtectedHeader({ alg: "ES256", kid, typ: "JWT" }).sign(privateKey);
    expect((await callWith(token)).status).toBe(200);
  });
});
