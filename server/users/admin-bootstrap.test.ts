import request from "supertest";
import { afterEach, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../test/harness";
import { ensureAdminAccount } from "./admin-bootstrap";

const ADMIN = { ADMIN_EMAIL: "Boss@Studio.test", ADMIN_PASSWORD: "boss-pass-1" };

let t: TestApp;
afterEach(() => t.close());

const login = (email: string, password: string) => request(t.app).post("/api/auth/login").send({ email, password });

describe("ensureAdminAccount", () => {
  it("creates the ADMIN_EMAIL account as an approved admin that signs in with ADMIN_PASSWORD", async () => {
    t = await createTestApp(ADMIN);
    await ensureAdminAccount(t.ctx);
    const row = await t.ctx.db("users").where({ email: "boss@studio.test" }).first();
    expect(row).toMatchObject({ role: "admin" });
    expect(Boolean(row.has_access)).toBe(true);
    expect(row.password_hash).toMatch(/^scrypt\$/);
    const res = await login("boss@studio.test", "boss-pass-1");
    expect(res.status).toBe(200);
    expect(
      (
        await request(t.app)
          .get("/api/users")
          .set({ Authorization: `Bearer ${res.body.accessToken}` })
      ).status,
    ).toBe(200);
  });

  it("changes nothing on a second start with the same settings", async () => {
    t = await createTestApp(ADMIN);
    await ensureAdminAccount(t.ctx);
    const before = await t.ctx.db("users").first();
    const session = await login("boss@studio.test", "boss-pass-1");
    await ensureAdminAccount(t.ctx);
    const after = await t.ctx.db("users");
    expect(after).toEqual([before]);
    expect(
      (await request(t.app).post("/api/auth/refresh").send({ refreshToken: session.body.refreshToken })).status,
    ).toBe(200);
  });

  it("promotes and approves an existing account, resets its password to ADMIN_PASSWORD and ends its sessions", async () => {
    t = await createTestApp(ADMIN);
    const signup = await request(t.app)
      .post("/api/auth/signup")
      .send({ email: "boss@studio.test", password: "own-pass-2" });
    expect(signup.body.user).toMatchObject({ role: "staff", hasAccess: false });
    await ensureAdminAccount(t.ctx);
    const row = await t.ctx.db("users").where({ uid: signup.body.user.uid }).first();
    expect(row).toMatchObject({ role: "admin" });
    expect(Boolean(row.has_access)).toBe(true);
    expect((await login("boss@studio.test", "own-pass-2")).status).toBe(401);
    expect((await login("boss@studio.test", "boss-pass-1")).status).toBe(200);
    expect(
      (await request(t.app).post("/api/auth/refresh").send({ refreshToken: signup.body.refreshToken })).status,
    ).toBe(401);
  });

  it("does nothing without ADMIN_EMAIL", async () => {
    t = await createTestApp();
    await ensureAdminAccount(t.ctx);
    expect(await t.ctx.db("users")).toHaveLength(0);
  });
});
