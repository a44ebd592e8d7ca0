import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bearer, RELAXED_LIMITS, type SessionBody } from "../auth/auth-test-helpers";
import { expectMatchesContract } from "../openapi/contract";
import { createTestApp, type TestApp } from "../test/harness";
import { approvedAccount } from "../two-factor/two-factor-test-helpers";
import { heldPasskey, LOCAL, signInOptions } from "./passkey-test-helpers";
import { IP_ADDRESS, NOT_SECURE } from "./relying-party";

let t: TestApp;
let admin: SessionBody;
let staff: SessionBody;

const LAN = { Host: "studio.lan:4000" };

beforeAll(async () => {
  t = await createTestApp(RELAXED_LIMITS);
  admin = await approvedAccount(t.app, "admin@studio.test", "adminpass1");
  staff = await approvedAccount(t.app, "staff@studio.test", "staffpass1", admin);
});
afterAll(() => t.close());

describe("where passkeys are offered", () => {
  it("offers them on localhost and refuses a plain-HTTP LAN name and an IP address, saying why", async () => {
    const local = await request(t.app).get("/api/auth/config").set(LOCAL);
    expectMatchesContract(local, "get", "/api/auth/config");
    expect(local.body.passkeys).toEqual({ offered: true, reason: null });
    const lan = await request(t.app).get("/api/auth/config").set(LAN);
    expect(lan.body.passkeys).toEqual({ offered: false, reason: NOT_SECURE });
    const ip = await request(t.app).get("/api/auth/config").set({ Host: "192.168.1.20:4000" });
    expect(ip.body.passkeys).toEqual({ offered: false, reason: IP_ADDRESS });

    const options = await request(t.app)
      .post("/api/users/me/passkeys/registration-options")
      .set(LAN)
      .set(bearer(staff.accessToken));
    expectMatchesContract(options, "post", "/api/users/me/passkeys/registration-options");
    expect(options.status).toBe(400);
    expect(options.body).toEqual({ statusCode: 400, message: NOT_SECURE });
    const signIn = await signInOptions(t.app, LAN);
    expect(signIn.status).toBe(400);
    expect(signIn.body.message).toBe(NOT_SECURE);
  });

  it("with PUBLIC_URL, offers them at its host only", async () => {
    const app = await createTestApp({ PUBLIC_URL: "https://photos.example.test/" });
    try {
      const there = await request(app.app).get("/api/auth/config").set({ Host: "photos.example.test" });
      expect(there.body.passkeys).toEqual({ offered: true, reason: null });
      const options = await signInOptions(app.app, { Host: "photos.example.test" });
      expect(options.status).toBe(200);
      expect(options.body.options.rpId).toBe("photos.example.test");
      const local = await request(app.app).get("/api/auth/config").set(LOCAL);
      expect(local.body.passkeys.offered).toBe(false);
      expect(local.body.passkeys.reason).toMatch(/https:\/\/photos\.example\.test, the studio's address/);
    } finally {
      await app.close();
    }
  });
});

describe("adding passkeys", () => {
  it("asks for a discoverable, user-verified credential for this host and the user's handle", async () => {
    const res = await request(t.app)
      .post("/api/users/me/passkeys/registration-options")
      .set(LOCAL)
      .set(bearer(staff.accessToken))
      .send({ password: "staffpass1" });
    expect(res.status).toBe(200);
    expectMatchesContract(res, "post", "/api/users/me/passkeys/registration-options");
    expect(res.body.rp).toEqual({ id: "localhost", name: "Photodrop" });
    expect(res.body.user.id).toBe(Buffer.from(staff.user.uid).toString("base64url"));
    expect(res.body.authenticatorSelection).toMatchObject({ residentKey: "required", userVerification: "required" });
  });

  it("refuses a session-less call, an API token, an answer without options, a forged one, and a second use", async () => {
    expect((await request(t.app).post("/api/users/me/passkeys/registration-options").set(LOCAL)).status).toBe(401);
    const token = await request(t.app)
      .post("/api/users/me/tokens")
      .set(bearer(staff.accessToken))
      .send({ name: "Script", scope: "write", expiresAt: null });
    const byToken = await request(t.app).get("/api/users/me/passkeys").set(bearer(token.body.token));
    expect(byToken.status).toBe(403);

    const fresh = await approvedAccount(t.app, "fresh@studio.test", "freshpass1", admin);
    // Well-formed, but made by no authenticator.
    const forged = {
      name: "Laptop",
      response: {
        id: "AAAA",
        rawId: "AAAA",
        type: "public-key",
        response: { clientDataJSON: "AAAA", attestationObject: "AAAA", transports: ["internal"] },
      },
    };
    const add = () => request(t.app).post("/api/users/me/passkeys").set(LOCAL).set(bearer(fresh.accessToken));
    const early = await add().send(forged);
    expect(early.status).toBe(400);
    expect(early.body.message).toMatch(/Start again/);
    await request(t.app)
      .post("/api/users/me/passkeys/registration-options")
      .set(LOCAL)
      .set(bearer(fresh.accessToken))
      .send({ password: "freshpass1" });
    const bad = await add().send(forged);
    expectMatchesContract(bad, "post", "/api/users/me/passkeys");
    expect(bad.body).toEqual({ statusCode: 400, message: "The passkey could not be verified" });
    expect((await add().send(forged)).body.message).toMatch(/Start again/);
    const noName = await add().send({ ...forged, name: " " });
    expect(noName.status).toBe(400);
    expect(noName.body.errors).toEqual({ name: "Name is required" });
    const list = await request(t.app).get("/api/users/me/passkeys").set(bearer(fresh.accessToken));
    expect(list.body).toEqual([]);
  });
});

describe("another user's passkeys", () => {
  it("cannot be renamed or removed: 404, unchanged", async () => {
    const { passkey: theirs } = await heldPasskey(t, admin, "Admin's key");
    const path = `/api/users/me/passkeys/${theirs.id}`;
    const rename = await request(t.app).patch(path).set(bearer(staff.accessToken)).send({ name: "Mine now" });
    expectMatchesContract(rename, "patch", "/api/users/me/passkeys/:id");
    expect(rename.status).toBe(404);
    expect((await request(t.app).delete(path).set(bearer(staff.accessToken))).status).toBe(404);
    expect((await request(t.app).delete("/api/users/me/passkeys/abc").set(bearer(staff.accessToken))).status).toBe(400);
    const own = await request(t.app).get("/api/users/me/passkeys").set(bearer(admin.accessToken));
    expect(own.body).toContainEqual(expect.objectContaining({ id: theirs.id, name: "Admin's key" }));
  });

  it("go with their user", async () => {
    const leaving = await approvedAccount(t.app, "leaving@studio.test", "leavingpass1", admin);
    await heldPasskey(t, leaving);
    await t.ctx.db("users").where({ uid: leaving.user.uid }).delete();
    expect(await t.ctx.db("passkeys").where({ user_uid: leaving.user.uid })).toEqual([]);
  });
});
