import path from "node:path";
import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bearer, signUp } from "../auth/auth-test-helpers";
import { makeNoisyJpeg } from "../attachments/test-fixtures";
import { burst, tally } from "../auth/burst-test-helpers";
import { startTwoProcesses, type AppProcess, type TwoProcesses } from "../test/app-process";
import { until } from "../test/wait";

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

/** A project published through `on`, with a passcode: answers its delivery token. */
async function publishWithPasscode(on: AppProcess, token: string, passcode: string): Promise<string> {
  const auth = bearer(token);
  const project = await request(on.url).post("/api/projects").set(auth).send({ name: "Locked Wedding" });
  expect(project.status).toBe(201);
  const upload = await request(on.url)
    .post(`/api/attachments/projects/${project.body.id}/upload`)
    .set(auth)
    .attach("file", await makeNoisyJpeg(320, 240), "one.jpg");
  expect(upload.status, JSON.stringify(upload.body)).toBe(201);
  expect((await request(on.url).post(`/api/projects/${project.body.id}/publish`).set(auth)).status).toBe(202);
  const published = await until(
    async () => (await request(on.url).get(`/api/projects/${project.body.id}`).set(auth)).body,
    (p) => p.publishStatus === "published",
  );
  const settings = await request(on.url).put(`/api/projects/${project.body.id}/delivery`).set(auth).send({ passcode });
  expect(settings.status, JSON.stringify(settings.body)).toBe(200);
  return path.basename(published.downloadUrl as string, ".zip");
}

describe("thirty attempts at once, split between two processes", () => {
  it("check no more than 10 passcodes, and refuse the right one, sent 26th", async () => {
    const admin = await signUp(two.a.url, "admin@studio.test", "adminpass");
    const token = await publishWithPasscode(two.a, admin.accessToken, "0025");
    const statuses = await burst(
      Array.from({ length: 30 }, (_, i) => ({
        port: across(i),
        path: `/d/${token}/unlock`,
        body: { passcode: String(i).padStart(4, "0") },
        form: true,
      })),
    );
    const counts = tally(statuses);
    expect(
      statuses.every((s) => s === 401 || s === 429),
      JSON.stringify(counts),
    ).toBe(true);
    expect(counts[401]).toBe(BUDGET);
    expect(statuses[25], "the right passcode, sent 26th").toBe(429);
  }, 120_000);

  it("judge no more wrong passwords than the account's budget", async () => {
    await signUp(two.b.url, "owner@studio.test", "rightpass");
    const statuses = await burst(
      Array.from({ length: 30 }, (_, i) => ({
        port: across(i),
        path: "/api/auth/login",
        body: { email: "owner@studio.test", password: `wrong-${i}` },
      })),
    );
    const counts = tally(statuses);
    expect(
      statuses.every((s) => s === 401 || s === 429),
      JSON.stringify(counts),
    ).toBe(true);
    expect(counts[401]).toBe(BUDGET);
  }, 60_000);
});
