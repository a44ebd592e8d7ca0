import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bearer, createLoggedTestApp } from "./auth-test-helpers";
import { eventually } from "../test/wait";

let t: Awaited<ReturnType<typeof createLoggedTestApp>>;
beforeAll(async () => {
  t = await createLoggedTestApp();
});
afterAll(() => t.close());

describe("logs", () => {
  it("never hold a password, password hash, access token or refresh token across a whole account lifecycle", async () => {
    const secrets: string[] = [];
    const signup = await request(t.app)
      .post("/api/auth/signup")
      .send({ email: "log@studio.test", password: "firstSecret1" });
    secrets.push("firstSecret1", signup.body.accessToken, signup.body.refreshToken);
    const staff = await request(t.app)
      .post("/api/auth/signup")
      .send({ email: "staff@studio.test", password: "staffSecret2" });
    secrets.push("staffSecret2", staff.body.accessToken, staff.body.refreshToken);

    await request(t.app).post("/api/auth/login").send({ email: "log@studio.test", password: "wrongSecret3" });
    secrets.push("wrongSecret3");
    const login = await request(t.app)
      .post("/api/auth/login")
      .send({ email: "log@studio.test", password: "firstSecret1" });
    secrets.push(login.body.accessToken, login.body.refreshToken);
    const refreshed = await request(t.app).post("/api/auth/refresh").send({ refreshToken: login.body.refreshToken });
    secrets.push(refreshed.body.refreshToken, refreshed.body.accessToken);
    expect(
      (await request(t.app).post("/api/auth/refresh").send({ refreshToken: login.body.refreshToken })).status,
    ).toBe(401);
    await request(t.app).post("/api/auth/logout").send({ refreshToken: signup.body.refreshToken });

    // Signing out ended the sign-up's session, access token included: the admin signs in again.
    const again = await request(t.app)
      .post("/api/auth/login")
      .send({ email: "log@studio.test", password: "firstSecret1" });
    secrets.push(again.body.accessToken, again.body.refreshToken);
    const admin = bearer(again.body.accessToken);
    await request(t.app)
      .post("/api/users/me/request-access")
      .set(bearer(staff.body.accessToken))
      .send({ message: "please" });
    expect(
      (await request(t.app).put(`/api/users/${staff.body.user.uid}`).set(admin).send({ hasAccess: true })).status,
    ).toBe(200);

    await request(t.app).post("/api/auth/password-reset").send({ email: "staff@studio.test" });
    const mail = await eventually(() =>
      t.lines.map((l: string) => JSON.parse(l)).find((l) => l.mail?.subject === "Reset your Photodrop password"),
    );
    const resetToken = mail.mail.body.match(/token=([\w-]+)/)[1];
    await request(t.app).post("/api/auth/password-reset/confirm").send({ token: resetToken, password: "resetSecret4" });
    secrets.push("resetSecret4");

    const hashes = (await t.ctx.db("users").select("password_hash")).map((r) => r.password_hash as string);
    const log = t.log();
    expect(log).toContain("account created");
    expect(log).toContain("refresh token replayed");
    expect(log).toContain("user access changed");
    for (const secret of [...secrets, ...hashes]) {
      expect(secret.length).toBeGreaterThan(5);
      expect(log).not.toContain(secret);
    }
  });
});
