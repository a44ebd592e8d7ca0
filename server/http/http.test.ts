import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, createUser, type TestApp, type TestUser } from "../test/harness";

let t: TestApp;
let approved: TestUser;
let pending: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  approved = await createUser(t.ctx);
  pending = await createUser(t.ctx, { hasAccess: false });
});
afterAll(() => t.close());

describe("the API's shared HTTP behaviour", () => {
  it("refuses a call without a bearer token with 401 JSON", async () => {
    const res = await request(t.app).get("/api/clients");
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ statusCode: 401, message: "Authentication required" });
  });

  it("refuses a garbage token with 401", async () => {
    const res = await request(t.app).get("/api/clients").set("Authorization", "Bearer not.a.jwt");
    expect(res.status).toBe(401);
  });

  it("gives a signed-in user without approval 403 outside /api/users/me", async () => {
    const res = await request(t.app).get("/api/clients").set(pending.auth);
    expect(res.status).toBe(403);
    expect(res.body.statusCode).toBe(403);
  });

  it("answers an unknown API route with 404 JSON", async () => {
    const res = await request(t.app).get("/api/nothing-here").set(approved.auth);
    expect(res.status).toBe(404);
    expect(res.body.statusCode).toBe(404);
  });

  it("answers malformed JSON with 400 and no stack trace", async () => {
    const res = await request(t.app).post("/api/auth/login").set("Content-Type", "application/json").send('{"email": ');
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ statusCode: 400, message: "Malformed JSON in request body" });
  });

  it.each(["/api/clients/%", "/api/attachments/%/view", "/published/%E0%A4%A.zip"])(
    "answers a path that cannot be decoded (%s) with 400",
    async (path) => {
      const res = await request(t.app).get(path).set(approved.auth);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ statusCode: 400, message: "Malformed URL" });
    },
  );

  // PostgreSQL stores ids as 32-bit integers: a larger one must be refused before it reaches a query.
  it.each([
    ["GET", "/api/projects/3000000000", undefined],
    ["GET", "/api/clients/2147483648", undefined],
    ["GET", "/api/projects?clientId=3000000000", undefined],
    ["GET", "/api/attachments?projectId=-3000000000", undefined],
    ["POST", "/api/projects", { name: "Out of range", clientId: 3000000000 }],
    ["POST", "/api/contacts", { name: "Out of range", clientId: "3000000000" }],
    ["DELETE", "/api/attachments", { ids: [3000000000] }],
  ] as const)(
    "answers %s %s with an id beyond what the database stores with 400, and changes nothing",
    async (method, path, body) => {
      const before = await t.ctx.db("projects").count({ n: "*" }).first();
      const call =
        method === "GET"
          ? request(t.app).get(path)
          : request(t.app)[method === "POST" ? "post" : "delete"](path).send(body);
      const res = await call.set(approved.auth);
      expect(res.status, JSON.stringify(res.body)).toBe(400);
      expect(res.body.statusCode).toBe(400);
      expect(await t.ctx.db("projects").count({ n: "*" }).first()).toEqual(before);
    },
  );

  it.each(["_sort=__proto__", "constructor=1", "_sort=toString"])(
    "answers a list parameter named like an object property (%s) with 400",
    async (query) => {
      const res = await request(t.app).get(`/api/clients?${query}`).set(approved.auth);
      expect(res.status).toBe(400);
    },
  );

  it("sets security headers", async () => {
    const res = await request(t.app).get("/api/clients");
    expect(res.headers["x-content-type-options"]).toBe("nosniff");
    expect(res.headers["content-security-policy"]).toContain("default-src 'self'");
    // Scripts reach this origin only (its WebSockets included), never ws: or wss: to any host.
    expect(res.headers["content-security-policy"]).toMatch(/(^|;)connect-src 'self'(;|$)/);
  });
});
