import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../test/harness";
import { burst, listen, tallyOnly, wrongPasswords, type Listening } from "./burst-test-helpers";
import { signUp } from "./auth-test-helpers";

/**
 * Thirty sign-ins or reset requests sent at the same moment, on one app or on two sharing one
 * database: each is counted before it is judged, so no more than a budget's worth are judged.
 */
const BUDGET = 10;
const ENV = {
  RATE_LIMIT_PER_ACCOUNT: String(BUDGET),
  RATE_LIMIT_PER_ACCOUNT_HOURLY: String(BUDGET),
  RATE_LIMIT_PER_IP: "100000",
  RATE_LIMIT_WINDOW: "600",
  PUBLIC_URL: "https://photos.example.test/",
};

let t: TestApp;
let other: TestApp;
let servers: Listening[];

beforeAll(async () => {
  t = await createTestApp(ENV);
  other = await createTestApp({ ...ENV, DATABASE_URL: t.ctx.config.databaseUrl });
  servers = [await listen(t.app), await listen(other.app)];
});
afterAll(async () => {
  for (const server of servers ?? []) await server.close();
  await other?.close();
  await t?.close();
});

const cases = [
  ["one app", 1],
  ["two apps on one database", 2],
] as const;

describe.each(cases)("thirty attempts at once on one account (%s)", (name, apps) => {
  const on = (i: number) => servers[i % apps].port;

  it("judge no more wrong passwords from one address than the pair's budget", async () => {
    const email = `one-address-${apps}@studio.test`;
    await signUp(t.app, email, "rightpass");
    const counts = tallyOnly(await burst(wrongPasswords(email, on)), [401, 429]);
    expect(counts[401], name).toBe(BUDGET);
    expect(counts[429]).toBe(30 - BUDGET);
  });

  it("judge no more wrong passwords from thirty addresses than the account's ceiling", async () => {
    const email = `many-addresses-${apps}@studio.test`;
    await signUp(t.app, email, "rightpass");
    const counts = tallyOnly(await burst(wrongPasswords(email, on, (i) => `127.0.${apps}.${i + 1}`)), [401, 429]);
    expect(counts[401]).toBe(BUDGET);
    expect(counts[429]).toBe(30 - BUDGET);
  });

  it("store no more reset links (one mail each) than the budget's worth", async () => {
    const email = `reset-${apps}@studio.test`;
    const { user } = await signUp(t.app, email, "rightpass");
    const statuses = await burst(
      Array.from({ length: 30 }, (_, i) => ({ port: on(i), path: "/api/auth/password-reset", body: { email } })),
    );
    const counts = tallyOnly(statuses, [202, 429]);
    expect(counts[202]).toBe(BUDGET);
    const links = await t.ctx.db("password_reset_tokens").where({ user_uid: user.uid });
    expect(links.length).toBe(counts[202]);
  });
});
