import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signUp } from "../auth/auth-test-helpers";
import { burst, passcodeGuesses, tallyOnly, wrongPasswords } from "../auth/burst-test-helpers";
import { startTwoProcesses, type AppProcess, type TwoProcesses } from "../test/app-process";
import { publishWithPasscode } from "./publish-with-passcode";

/**
 * Thirty guesses sent at the same moment to two real processes on one PostgreSQL database, as
 * behind a load balancer: each is counted in the database before it is judged, so between them
 * the processes judge no more than the budget's worth (10).
 */
const BUDGET = 10;
let two: TwoProcesses;

beforeAll(async () => {
  two = await startTwoProcesses("photodrop-bursts-", {
    RATE_LIMIT_PER_IP: "100000",
    RATE_LIMIT_PER_ACCOUNT: String(BUDGET),
    RATE_LIMIT_PER_ACCOUNT_HOURLY: String(BUDGET),
    RATE_LIMIT_WINDOW: "600",
  });
}, 120_000);
afterAll(() => two?.stop());

const portOf = (on: AppProcess) => Number(new URL(on.url).port);
const across = (i: number) => portOf(i % 2 === 0 ? two.a : two.b);

describe("thirty attempts at once, split between two processes", () => {
  it("check no more than 10 passcodes, and refuse the right one, sent 26th", async () => {
    const admin = await signUp(two.a.url, "admin@studio.test", "adminpass");
    const token = await publishWithPasscode(two.a, admin.accessToken, "0025");
    const statuses = await burst(passcodeGuesses(token, across));
    const counts = tallyOnly(statuses, [401, 429]);
    expect(counts[401]).toBe(BUDGET);
    expect(statuses[25], "the right passcode, sent 26th").toBe(429);
  }, 120_000);

  it("judge no more wrong passwords than the account's budget", async () => {
    await signUp(two.b.url, "owner@studio.test", "rightpass");
    const statuses = await burst(wrongPasswords("owner@studio.test", across));
    const counts = tallyOnly(statuses, [401, 429]);
    expect(counts[401]).toBe(BUDGET);
  }, 60_000);
});
