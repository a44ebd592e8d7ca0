import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, createUser, type TestApp, type TestUser } from "../test/harness";
import { insertProjectRow } from "../test/rows";
import { EXPIRY_NOT_IN_FUTURE } from "../../api/validation";

let t: TestApp;
let staff: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  staff = await createUser(t.ctx);
});
afterAll(() => t.close());

const settings = (id: number, body: object) =>
  request(t.app).put(`/api/projects/${id}/delivery`).set(staff.auth).send(body);
const storedExpiry = async (id: number) =>
  (await t.ctx.db("projects").where({ id }).first()).delivery_expires_at as string | null;

describe("a delivery link's expiry", () => {
  it.each([
    ["a second ago", -1_000],
    ["a year ago", -365 * 86_400_000],
    ["this very moment", 0],
  ])("is refused when it is %s, with 400 and nothing changed", async (_when, offset) => {
    const id = await insertProjectRow(t.ctx);
    const kept = new Date(Date.now() + 86_400_000).toISOString();
    expect((await settings(id, { expiresAt: kept })).status).toBe(200);
    const res = await settings(id, { expiresAt: new Date(Date.now() + offset).toISOString(), passcode: "open sesame" });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      statusCode: 400,
      message: EXPIRY_NOT_IN_FUTURE,
      errors: { expiresAt: EXPIRY_NOT_IN_FUTURE },
    });
    expect(new Date((await storedExpiry(id))!).toISOString()).toBe(kept);
    expect((await t.ctx.db("projects").where({ id }).first()).delivery_passcode_hash).toBeNull();
  });

  it("is taken when it is in the future, in any offset, and can be removed", async () => {
    const id = await insertProjectRow(t.ctx);
    const inAMinute = new Date(Date.now() + 60_000);
    const withOffset = inAMinute.toISOString().replace("Z", "+00:00");
    const res = await settings(id, { expiresAt: withOffset });
    expect(res.status).toBe(200);
    expect(res.body.delivery.expiresAt).toBe(inAMinute.toISOString());
    expect((await settings(id, { expiresAt: null })).body.delivery.expiresAt).toBeNull();
  });
});
