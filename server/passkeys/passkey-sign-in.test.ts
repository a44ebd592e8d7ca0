import crypto from "node:crypto";
import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bearer, RELAXED_LIMITS, type SessionBody } from "../auth/auth-test-helpers";
import { expectMatchesContract } from "../openapi/contract";
import { createTestApp, type TestApp } from "../test/harness";
import { approvedAccount, spendingTheAccountBudget } from "../two-factor/two-factor-test-helpers";
import { insertPasskey } from "./passkeys.repository";
import { handleOf, heldPasskey, LOCAL, signInOptions, softwarePasskey } from "./passkey-test-helpers";

let t: TestApp;
let admin: SessionBody;
let staff: SessionBody;

beforeAll(async () => {
  t = await createTestApp(RELAXED_LIMITS, { captureLog: true });
  admin = await approvedAccount(t.app, "admin@studio.test", "adminpass1");
  staff = await approvedAccount(t.app, "staff@studio.test", "staffpass1", admin);
});
afterAll(() => t.close());

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

/** Why the server refused the latest passkey sign-in, as its log says. */
function lastRefusal(): string | undefined {
  const lines = t.logLines.map((line) => JSON.parse(line) as { msg?: string; reason?: string });
  return lines.filter((line) => line.msg === "passkey sign-in refused").at(-1)?.reason;
}

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
    await spendingTheAccountBudget(async (limited, owner) => {
      const { key } = await heldPasskey(limited, owner);
      const forger = crypto.generateKeyPairSync("ec", { namedCurve: "P-256" }).privateKey;
      const attempt = async (signWith?: crypto.KeyObject) =>
        signIn(limited, await answered(limited, key, { counter: 9, userHandle: handleOf(owner), signWith }));
      for (let i = 0; i < 3; i++) expect((await attempt(forger)).status).toBe(401);
      const refused = await attempt();
      expect(refused.status).toBe(429);
      expect(refused.headers["retry-after"]).toEqual(expect.any(String));
    });
  });
});
