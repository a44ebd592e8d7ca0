import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, createUser, type TestApp, type TestUser } from "../test/harness";
import { burst, listen, passcodeGuesses, tallyOnly, type Listening } from "../auth/burst-test-helpers";
import { publishDelivery } from "./test-fixtures";
import { PASSCODE_LIMIT } from "./passcode-attempts";

/**
 * Thirty guesses at a link's passcode sent at the same moment, '0000' to '0029', the right one
 * '0025': each is counted before it is checked, so no more than the link's budget (10) are
 * checked, and the 26th is refused unchecked, on one app or on two sharing one database.
 */
let t: TestApp;
let other: TestApp;
let staff: TestUser;
let servers: Listening[];

beforeAll(async () => {
  t = await createTestApp();
  const { databaseUrl, uploadsDir, publishedDir } = t.ctx.config;
  other = await createTestApp({ DATABASE_URL: databaseUrl, UPLOADS_DIR: uploadsDir, PUBLISHED_DIR: publishedDir });
  staff = await createUser(t.ctx, { email: "staff@studio.test" });
  servers = [await listen(t.app), await listen(other.app)];
});
afterAll(async () => {
  for (const server of servers ?? []) await server.close();
  await other?.close();
  await t?.close();
});

describe("thirty passcode guesses sent at once", () => {
  it.each([
    ["one app", 1],
    ["two apps on one database", 2],
  ])("get at most the budget's worth checked, and the right one, 26th, is refused (%s)", async (_name, apps) => {
    const d = await publishDelivery(t, staff);
    const set = await request(t.app).put(`/api/projects/${d.id}/delivery`).set(staff.auth).send({ passcode: "0025" });
    expect(set.status).toBe(200);

    const statuses = await burst(passcodeGuesses(d.token, (i) => servers[i % apps].port));
    const counts = tallyOnly(statuses, [401, 429]);
    expect(counts[401]).toBe(PASSCODE_LIMIT.limit);
    expect(counts[429]).toBe(30 - PASSCODE_LIMIT.limit);
    expect(statuses[25], "the right passcode, sent 26th").toBe(429);
    // The budget is spent: the right passcode is refused now too.
    const after = await request(other.app).post(`/d/${d.token}/unlock`).type("form").send({ passcode: "0025" });
    expect(after.status).toBe(429);
  });
});
