import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RELAXED_LIMITS, signUp } from "../auth/auth-test-helpers";
import { startAppProcess, startTwoProcesses, type AppProcess, type TwoProcesses } from "../test/app-process";
import { publishWithPasscode } from "./publish-with-passcode";

/**
 * A delivery link's wrong-passcode budget (10 per 15 minutes) with two real processes on one
 * PostgreSQL database, as behind a load balancer: one budget for the link, whichever process
 * answers, and still spent after both restart.
 */
let two: TwoProcesses;
let restarted: AppProcess | undefined;

beforeAll(async () => {
  two = await startTwoProcesses("photodrop-passcode-", RELAXED_LIMITS);
}, 120_000);

afterAll(async () => {
  await restarted?.stop();
  await two?.stop();
});

const unlock = (on: AppProcess, token: string, passcode: string) =>
  request(on.url).post(`/d/${token}/unlock`).type("form").send({ passcode });

describe("one wrong-passcode budget per delivery link", () => {
  it("is spent by ten wrong passcodes split between two processes, and stays spent after both restart", async () => {
    const { a, b } = two;
    const admin = await signUp(a.url, "admin@studio.test");
    const token = await publishWithPasscode(a, admin.accessToken, "right one");
    for (let i = 0; i < 10; i++) {
      const res = await unlock(i % 2 === 0 ? a : b, token, `wrong ${i}`);
      expect(res.status, `wrong passcode ${i}`).toBe(401);
    }
    for (const on of [a, b]) {
      const refused = await unlock(on, token, "right one");
      expect(refused.status).toBe(429);
      expect(Number(refused.headers["retry-after"])).toBeGreaterThan(14 * 60);
      expect(refused.text).toContain("Too many wrong passcodes, please try again later");
    }

    await Promise.all([a.stop(), b.stop()]);
    restarted = await startAppProcess(two.env);
    const again = await unlock(restarted, token, "right one");
    expect(again.status).toBe(429);
    expect(Number(again.headers["retry-after"])).toBeGreaterThan(13 * 60);
  }, 180_000);
});
