import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../test/harness";
import { RELAXED_LIMITS } from "./auth-test-helpers";

let strict: TestApp;
let lenient: TestApp;

beforeAll(async () => {
  strict = await createTestApp({
    ...RELAXED_LIMITS,
    PASSWORD_MIN_LENGTH: "8",
    PASSWORD_MAX_LENGTH: "16",
    PASSWORD_REQUIRE_UPPER: "1",
    PASSWORD_REQUIRE_LOWER: "1",
    PASSWORD_REQUIRE_NUMBER: "1",
    PASSWORD_REQUIRE_SYMBOL: "1",
  });
  lenient = await createTestApp(RELAXED_LIMITS);
});
afterAll(async () => {
  await strict.close();
  await lenient.close();
});

async function signUpWith(t: TestApp, password: string) {
  const email = `p${Math.random().toString(36).slice(2)}@studio.test`;
  const res = await request(t.app).post("/api/auth/signup").send({ email, password });
  const stored = await t.ctx.db("users").where({ email }).first();
  return { res, stored };
}

describe("password policy on sign-up", () => {
  it.each([
    ["Ab1!", "Password must be at least 8 characters"],
    ["Abcdefgh1!xyzuvwq", "Password must be at most 16 characters"],
    ["abcdefg1!", "Password must contain an uppercase letter"],
    ["ABCDEFG1!", "Password must contain a lowercase letter"],
    ["Abcdefgh!", "Password must contain a number"],
    ["Abcdefgh1", "Password must contain a non-alphanumeric character"],
  ])("refuses %j with %j and creates no account", async (password, message) => {
    const { res, stored } = await signUpWith(strict, password);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ statusCode: 400, message, errors: { password: message } });
    expect(stored).toBeUndefined();
  });

  it("accepts a password meeting every rule, counting characters rather than bytes", async () => {
    expect((await signUpWith(strict, "Abcdefg1!")).res.status).toBe(201);
    expect((await signUpWith(strict, "Ünïcödé1!ßéèàçñ")).res.status).toBe(201);
  });

  it("requires six characters by default and nothing else", async () => {
    const short = await signUpWith(lenient, "12345");
    expect(short.res.status).toBe(400);
    expect(short.res.body.message).toBe("Password must be at least 6 characters");
    expect((await signUpWith(lenient, "aaaaaa")).res.status).toBe(201);
  });
});
