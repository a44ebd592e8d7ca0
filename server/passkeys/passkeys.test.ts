import crypto from "node:crypto";
import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bearer, RELAXED_LIMITS, type SessionBody } from "../auth/auth-test-helpers";
import { expectMatchesContract } from "../openapi/contract";
import { createTestApp, type TestApp } from "../test/harness";
import { approvedAccount } from "../two-factor/two-factor-test-helpers";
import { insertPasskey } from "./passkeys.repository";
import { softwarePasskey } from "./passkey-test-helpers";
import { IP_ADDRESS, NOT_SECURE } from "./relying-party";

let t: TestApp;
let admin: SessionBody;
let staff: SessionBody;
let n = 0;

const LOCAL = { Host: "localhost:4000" };
const LAN = { Host: "studio.lan:4000" };

beforeAll(async () => {
  t = await createTestApp(RELAXED_LIMITS, { captureLog: true });
  admin = await approvedAccount(t.app, "admin@studio.test", "adminpass1");
  staff = await approvedAccount(t.app, "staff@studio.test", "staffpass1", admin);
});
afterAll(() => t.close());

/** A passkey row arranged by SQL (no authenticator holds its key): enough for every refusal. */
async function arrangedPasskey(app: TestApp, uid: string, name = "Arranged key") {
  const credentialId = Buffer.from(`credential-${++n}`).toString("base64url");
  const passkey = await insertPasskey(app.ctx.db, {
    uid,
    name,
    credentialId,
    publicKey: Buffer.from("not a key").toString("base64url"),
    counter: 5,
    transports: ["internal"],
    rpId: "localhost",
  });
  return { ...passkey!, credentialId };
}

/** A passkey whose key the test holds, stored for `who` at localhost with counter 5. */
async function heldPasskey(app: TestApp, who: SessionBody) {
  const key = softwarePasskey();
  const passkey = await insertPasskey(app.ctx.db, {
    uid: who.user.uid,
    name: "Held key",
    credentialId: key.credentialId,
    publicKey: key.publicKey,
    counter: 5,
    transports: ["internal"],
    rpId: "localhost",
  });
  return { key, passkey: passkey! };
}

const handleOf = (who: SessionBody) => Buffer.from(who.user.uid).toString("base64url");

/** Every challenge and challenge id handed out, which the log must never hold. */
const asked: string[] = [];

/** Sign-in options as the page gets them: the challenge to sign and its id. */
async function ceremony(app: TestApp) {
  const res = await signInOptions(app.app);
  expect(res.status).toBe(200);
  asked.push(res.body.challengeId, res.body.options.challenge);
  return { challengeId: res.body.challengeId as string, challenge: res.body.options.challenge as string };
}

type Assertion = Parameters<ReturnType<typeof softwarePasskey>["assert"]>[0];

/** Asks for sign-in options and answers them with `key` (what it signs altered by `opts`). */
async function answered(app: TestApp, key: ReturnType<typeof softwarePasskey>, opts: Omit<Assertion, "challenge">) {
  const { challengeId, challenge } = await ceremony(app);
  return { challengeId, response: key.assert({ challenge, ...opts }) };
}

const signIn = (app: TestApp, body: object) => request(app.app).post("/api/auth/passkey").set(LOCAL).send(body);

/** A well-formed assertion for `credentialId` that no authenticator signed. */
const forgedAssertion = (credentialId: string) => ({
  id: credentialId,
  rawId: credentialId,
  type: "public-key",
  clientExtensionResults: {},
  response: {
    clientDataJSON: Buffer.from(JSON.stringify({ type: "webauthn.get", challenge: "x" })).toString("base64url"),
    authenticatorData: Buffer.alloc(37).toString("base64url"),
    signature: Buffer.alloc(64).toString("base64url"),
  },
});

/** Why the server refused the latest passkey sign-in, as its log says. */
function lastRefusal(): string | undefined {
  const lines = t.logLines.map((line) => JSON.parse(line) as { msg?: string; reason?: string });
  return lines.filter((line) => line.msg === "passkey sign-in refused").at(-1)?.reason;
}

const signInOptions = (app: TestApp["app"], host = LOCAL) => request(app).post("/api/auth/passkey/options").set(host);

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
      .set(bearer(staff.accessToken));
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
    const forged = {
      name: "Laptop",
      response: {
        ...forgedAssertion("AAAA"),
        response: { clientDataJSON: "AAAA", attestationObject: "AAAA", transports: ["internal"] },
      },
    };
    const add = () => request(t.app).post("/api/users/me/passkeys").set(LOCAL).set(bearer(fresh.accessToken));
    const early = await add().send(forged);
    expect(early.status).toBe(400);
    expect(early.body.message).toMatch(/Start again/);
    await request(t.app).post("/api/users/me/passkeys/registration-options").set(LOCAL).set(bearer(fresh.accessToken));
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
    const theirs = await arrangedPasskey(t, admin.user.uid, "Admin's key");
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
    await arrangedPasskey(t, leaving.user.uid);
    await t.ctx.db("users").where({ uid: leaving.user.uid }).delete();
    expect(await t.ctx.db("passkeys").where({ user_uid: leaving.user.uid })).toEqual([]);
  });
});

describe("signing in with a passkey", () => {
  it("answers options for any discoverable passkey, the user verified, and a challenge id", async () => {
    const res = await signInOptions(t.app);
    expectMatchesContract(res, "post", "/api/auth/passkey/options");
    expect(res.body.challengeId).toEqual(expect.any(String));
    expect(res.body.options).toMatchObject({ rpId: "localhost", userVerification: "required" });
    expect(res.body.options.allowCredentials ?? []).toEqual([]);
  });

  it("signs in with the passkey alone, raising its counter and noting its use", async () => {
    const { key, passkey } = await heldPasskey(t, staff);
    const res = await signIn(t, await answered(t, key, { counter: 6, userHandle: handleOf(staff) }));
    expectMatchesContract(res, "post", "/api/auth/passkey");
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.user.uid).toBe(staff.user.uid);
    const me = await request(t.app).get("/api/users/me").set(bearer(res.body.accessToken));
    expect(me.status).toBe(200);
    const row = await t.ctx.db("passkeys").where({ id: passkey.id }).first();
    expect(Number(row.counter)).toBe(6);
    expect(row.last_used_at).not.toBeNull();
  });

  it("refuses each wrong answer with one message, for its own reason", async () => {
    const { key } = await heldPasskey(t, staff);
    const other = await heldPasskey(t, admin);
    const stranger = crypto.generateKeyPairSync("ec", { namedCurve: "P-256" }).privateKey;
    const mine = { counter: 10, userHandle: handleOf(staff) };
    const cases: Array<[string | RegExp, () => Promise<request.Response>]> = [
      ["unknown passkey", async () => signIn(t, await answered(t, softwarePasskey(), mine))],
      ["signature not verified", async () => signIn(t, await answered(t, key, { ...mine, signWith: stranger }))],
      [
        /counter value 5 was lower than expected 5/,
        async () => signIn(t, await answered(t, key, { ...mine, counter: 5 })),
      ],
      [
        "user handle of another account",
        async () => signIn(t, await answered(t, key, { ...mine, userHandle: handleOf(admin) })),
      ],
      ["user handle of another account", async () => signIn(t, await answered(t, other.key, mine))],
      [
        /Unexpected authentication response challenge/,
        async () => {
          const { response } = await answered(t, key, mine);
          return signIn(t, { challengeId: (await ceremony(t)).challengeId, response });
        },
      ],
      [
        /Unexpected authentication response origin/,
        async () => signIn(t, await answered(t, key, { ...mine, origin: "https://evil.test" })),
      ],
      [
        "challenge unknown, used or run out",
        async () => {
          const late = await answered(t, key, mine);
          const past = new Date(Date.now() - 1000).toISOString();
          await t.ctx.db("passkey_challenges").where({ id: late.challengeId }).update({ expires_at: past });
          return signIn(t, late);
        },
      ],
    ];
    for (const [reason, attempt] of cases) {
      const res = await attempt();
      expect([res.status, res.body.message]).toEqual([401, expect.stringMatching(/^The passkey was not accepted/)]);
      expect(lastRefusal()).toEqual(typeof reason === "string" ? reason : expect.stringMatching(reason));
    }
    const log = t.logLines.join("");
    expect(asked.filter((secret) => log.includes(secret))).toEqual([]);
    expect((await signIn(t, { nothing: true })).status).toBe(400);
  });

  it("answers each challenge once: a replayed answer is refused", async () => {
    const { key } = await heldPasskey(t, staff);
    const answer = await answered(t, key, { counter: 20, userHandle: handleOf(staff) });
    expect((await signIn(t, answer)).status).toBe(200);
    expect((await signIn(t, answer)).status).toBe(401);
    expect(lastRefusal()).toBe("challenge unknown, used or run out");
  });

  it("refuses a passkey made at another address", async () => {
    const key = softwarePasskey();
    await insertPasskey(t.ctx.db, {
      uid: staff.user.uid,
      name: "Elsewhere",
      credentialId: key.credentialId,
      publicKey: key.publicKey,
      counter: 0,
      transports: [],
      rpId: "studio.example",
    });
    const answer = await answered(t, key, { counter: 1, userHandle: handleOf(staff) });
    expect((await signIn(t, answer)).status).toBe(401);
    expect(lastRefusal()).toBe("passkey made for another address");
  });

  it("counts refusals on the account's sign-in budgets, like wrong passwords", async () => {
    const limited = await createTestApp({ RATE_LIMIT_PER_ACCOUNT: "3", RATE_LIMIT_PER_IP: "1000" });
    try {
      const owner = await approvedAccount(limited.app, "owner@studio.test", "ownerpass1");
      const { key } = await heldPasskey(limited, owner);
      const forger = crypto.generateKeyPairSync("ec", { namedCurve: "P-256" }).privateKey;
      const attempt = async (signWith?: crypto.KeyObject) =>
        signIn(limited, await answered(limited, key, { counter: 9, userHandle: handleOf(owner), signWith }));
      for (let i = 0; i < 3; i++) expect((await attempt(forger)).status).toBe(401);
      const refused = await attempt();
      expect(refused.status).toBe(429);
      expect(refused.headers["retry-after"]).toEqual(expect.any(String));
      const password = await request(limited.app)
        .post("/api/auth/login")
        .send({ email: "owner@studio.test", password: "ownerpass1" });
      expect(password.status).toBe(429);
    } finally {
      await limited.close();
    }
  });
});
