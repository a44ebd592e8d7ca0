import request from "supertest";
import { afterEach, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../test/harness";
import { clearScope, createRateLimiter } from "../http/rate-limit";
import { TooManyRequestsError } from "../http/errors";
import { signUp } from "./auth-test-helpers";

let t: TestApp;
afterEach(() => t.close());

const login = (email: string, password = "wrongpass") =>
  request(t.app).post("/api/auth/login").send({ email, password });

function expectTooMany(res: request.Response, windowSeconds: number) {
  expect(res.status).toBe(429);
  expect(res.body).toEqual({ statusCode: 429, message: "Too many attempts, please try again later" });
  const retryAfter = Number(res.headers["retry-after"]);
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(windowSeconds);
}

describe("rate limits on the identity calls", () => {
  it("stops sign-in attempts on one account with 429 and Retry-After, even with the right password", async () => {
    t = await createTestApp({ RATE_LIMIT_PER_ACCOUNT: "3", RATE_LIMIT_PER_IP: "100", RATE_LIMIT_WINDOW: "60" });
    await signUp(t.app, "target@studio.test", "rightpass");
    for (let i = 0; i < 3; i++) expect((await login("target@studio.test")).status).toBe(401);
    expectTooMany(await login("TARGET@studio.test", "rightpass"), 60);
    expect((await login("other@studio.test")).status).toBe(401);
  });

  it("stops sign-in attempts from one address across many accounts", async () => {
    t = await createTestApp({ RATE_LIMIT_PER_ACCOUNT: "100", RATE_LIMIT_PER_IP: "4", RATE_LIMIT_WINDOW: "60" });
    for (let i = 0; i < 4; i++) expect((await login(`spray${i}@studio.test`)).status).toBe(401);
    expectTooMany(await login("spray9@studio.test"), 60);
  });

  it("counts each action separately: spent sign-ins do not block sign-up", async () => {
    t = await createTestApp({ RATE_LIMIT_PER_ACCOUNT: "100", RATE_LIMIT_PER_IP: "2", RATE_LIMIT_WINDOW: "60" });
    await login("a@studio.test");
    await login("b@studio.test");
    expect((await login("c@studio.test")).status).toBe(429);
    await signUp(t.app, "new@studio.test");
    await signUp(t.app, "new2@studio.test");
    const third = await request(t.app)
      .post("/api/auth/signup")
      .send({ email: "new3@studio.test", password: "secret123" });
    expectTooMany(third, 60);
    expect(await t.ctx.db("users").where({ email: "new3@studio.test" })).toHaveLength(0);
  });

  it("limits refreshes and reset requests too", async () => {
    t = await createTestApp({ RATE_LIMIT_PER_ACCOUNT: "2", RATE_LIMIT_PER_IP: "3", RATE_LIMIT_WINDOW: "60" });
    for (let i = 0; i < 3; i++)
      await request(t.app)
        .post("/api/auth/refresh")
        .send({ refreshToken: `guess-${i}` });
    expectTooMany(await request(t.app).post("/api/auth/refresh").send({ refreshToken: "guess-x" }), 60);
    for (let i = 0; i < 2; i++)
      expect((await request(t.app).post("/api/auth/password-reset").send({ email: "v@studio.test" })).status).toBe(202);
    expectTooMany(await request(t.app).post("/api/auth/password-reset").send({ email: "v@studio.test" }), 60);
  });

  it("lets attempts through again once the window has passed", async () => {
    t = await createTestApp({ RATE_LIMIT_PER_ACCOUNT: "1", RATE_LIMIT_PER_IP: "100", RATE_LIMIT_WINDOW: "1" });
    expect((await login("w@studio.test")).status).toBe(401);
    expectTooMany(await login("w@studio.test"), 1);
    await new Promise((r) => setTimeout(r, 1100));
    expect((await login("w@studio.test")).status).toBe(401);
  });
});

describe("the fixed-window limiter", () => {
  it("allows `limit` hits per key per window and tells how long to wait", async () => {
    t = await createTestApp();
    let clock = 1_000_000;
    const limiter = createRateLimiter({ db: t.ctx.db, limit: 2, windowSeconds: 10, now: () => clock });
    await limiter.consume("k");
    await limiter.consume("k");
    await limiter.consume("other");
    clock += 4_000;
    const refused = await limiter.consume("k").catch((err: unknown) => err);
    expect(refused).toBeInstanceOf(TooManyRequestsError);
    expect((refused as TooManyRequestsError).headers).toEqual({ "Retry-After": "6" });
    clock += 6_000;
    await expect(limiter.consume("k")).resolves.toBe(1);
  });

  it("counts each hit before it answers, so of a burst at once only `limit` get through", async () => {
    t = await createTestApp();
    const limiter = createRateLimiter({ db: t.ctx.db, limit: 3, windowSeconds: 60 });
    const results = await Promise.allSettled(Array.from({ length: 10 }, () => limiter.consume("burst")));
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(3);
    expect(results.filter((r) => r.status === "rejected" && r.reason instanceof TooManyRequestsError)).toHaveLength(7);
    expect(await limiter.spent("burst")).toBe(true);
  });

  it("takes a hit back with giveBack, and clearScope ends every window of a scope", async () => {
    t = await createTestApp();
    const limiter = createRateLimiter({ db: t.ctx.db, limit: 2, windowSeconds: 60 });
    await limiter.consume("a", { scope: "s" });
    await limiter.consume("a", { scope: "s" });
    await limiter.giveBack("a");
    await expect(limiter.consume("a", { scope: "s" })).resolves.toBe(2);
    await expect(limiter.consume("a", { scope: "s" })).rejects.toBeInstanceOf(TooManyRequestsError);
    await limiter.consume("b", { scope: "s" });
    await limiter.consume("c", { scope: "other" });
    await clearScope(t.ctx.db, "s");
    await expect(limiter.consume("a")).resolves.toBe(1);
    await expect(limiter.consume("b")).resolves.toBe(1);
    await expect(limiter.consume("c")).resolves.toBe(2);
  });

  it("keeps no address or e-mail in the database, only hashes of the keys", async () => {
    t = await createTestApp({ RATE_LIMIT_PER_IP: "100" });
    await login("secret-person@studio.test");
    const rows = await t.ctx.db("rate_limit_windows").select("key_hash");
    expect(rows.length).toBeGreaterThan(0);
    expect(JSON.stringify(rows)).not.toMatch(/secret-person|127\.0\.0\.1/);
  });
});

describe("limits shared by several processes on one database", () => {
  it("allow no more attempts in all than one process would", async () => {
    t = await createTestApp({ RATE_LIMIT_PER_ACCOUNT: "100", RATE_LIMIT_PER_IP: "4", RATE_LIMIT_WINDOW: "60" });
    const other = await createTestApp({
      RATE_LIMIT_PER_ACCOUNT: "100",
      RATE_LIMIT_PER_IP: "4",
      RATE_LIMIT_WINDOW: "60",
      DATABASE_URL: t.ctx.config.databaseUrl,
    });
    try {
      const attempt = (app: TestApp, i: number) =>
        request(app.app)
          .post("/api/auth/login")
          .send({ email: `split${i}@studio.test`, password: "wrongpass" });
      const statuses = await Promise.all([0, 1, 2, 3, 4, 5].map((i) => attempt(i % 2 === 0 ? t : other, i)));
      expect(statuses.map((res) => res.status).sort()).toEqual([401, 401, 401, 401, 429, 429]);
    } finally {
      await other.close();
    }
  });
});
