import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../test/harness";
import { RELAXED_LIMITS, signUp } from "./auth-test-helpers";
import { REFRESH_COOKIE, SESSION_HEADER } from "./session-cookie";

let t: TestApp;
const owner = { email: "owner@studio.test", password: "secret123" };

beforeAll(async () => {
  t = await createTestApp({ ...RELAXED_LIMITS, TRUST_PROXY: "1" });
  await signUp(t.app, owner.email, owner.password);
});
afterAll(() => t.close());

const browser = { [SESSION_HEADER]: "cookie" };

/** The refresh cookie a response sets, as `name=value`, and its attributes. */
function refreshCookie(res: request.Response): { pair: string; attributes: string } {
  const header = ([] as string[])
    .concat(res.headers["set-cookie"] ?? [])
    .find((c) => c.startsWith(`${REFRESH_COOKIE}=`));
  expect(header, "a refresh cookie").toBeDefined();
  const [pair, ...attributes] = header!.split(";").map((p) => p.trim());
  return { pair, attributes: attributes.join("; ") };
}

const signIn = () => request(t.app).post("/api/auth/login").set(browser).send(owner);

describe("the browser's refresh token in an HttpOnly cookie", () => {
  it("is set on sign-in, HttpOnly, SameSite=Strict, for /api/auth only, and left out of the body", async () => {
    const res = await signIn();
    expect(res.status).toBe(200);
    expect(res.body.accessToken).toEqual(expect.any(String));
    expect(res.body).not.toHaveProperty("refreshToken");
    const { attributes } = refreshCookie(res);
    expect(attributes).toContain("HttpOnly");
    expect(attributes).toContain("SameSite=Strict");
    expect(attributes).toContain("Path=/api/auth");
    expect(attributes).toContain(`Max-Age=${t.ctx.config.refreshTokenTtl}`);
    expect(attributes).not.toContain("Secure");
  });

  it("is Secure when the request came over HTTPS", async () => {
    const res = await signIn().set("X-Forwarded-Proto", "https");
    expect(refreshCookie(res).attributes).toContain("Secure");
  });

  it("refreshes with the cookie and the header, rotating it; the replaced cookie is then refused", async () => {
    const first = refreshCookie(await signIn()).pair;
    const refreshed = await request(t.app).post("/api/auth/refresh").set(browser).set("Cookie", first);
    expect(refreshed.status).toBe(200);
    expect(refreshed.body.accessToken).toEqual(expect.any(String));
    expect(refreshed.body).not.toHaveProperty("refreshToken");
    const second = refreshCookie(refreshed).pair;
    expect(second).not.toBe(first);
    const replay = await request(t.app).post("/api/auth/refresh").set(browser).set("Cookie", first);
    expect(replay.status).toBe(401);
  });

  it("refuses the cookie without the header (a cross-site form cannot add it) and leaves the session alive", async () => {
    const cookie = refreshCookie(await signIn()).pair;
    const forged = await request(t.app).post("/api/auth/refresh").set("Cookie", cookie);
    expect(forged.status).toBe(403);
    const signOut = await request(t.app).post("/api/auth/logout").set("Cookie", cookie);
    expect(signOut.status).toBe(403);
    const real = await request(t.app).post("/api/auth/refresh").set(browser).set("Cookie", cookie);
    expect(real.status).toBe(200);
  });

  it("signs out with the cookie: the token is ended and the cookie cleared", async () => {
    const cookie = refreshCookie(await signIn()).pair;
    const res = await request(t.app).post("/api/auth/logout").set(browser).set("Cookie", cookie);
    expect(res.status).toBe(204);
    const cleared = refreshCookie(res);
    expect(cleared.pair).toBe(`${REFRESH_COOKIE}=`);
    expect(cleared.attributes).toContain("Expires=Thu, 01 Jan 1970");
    expect((await request(t.app).post("/api/auth/refresh").set(browser).set("Cookie", cookie)).status).toBe(401);
  });

  it("keeps the JSON body form for API clients: no cookie, the refresh token in the body", async () => {
    const res = await request(t.app).post("/api/auth/login").send(owner);
    expect(res.body.refreshToken).toEqual(expect.any(String));
    expect(res.headers["set-cookie"]).toBeUndefined();
    const refreshed = await request(t.app).post("/api/auth/refresh").send({ refreshToken: res.body.refreshToken });
    expect(refreshed.status).toBe(200);
    expect(refreshed.body.refreshToken).toEqual(expect.any(String));
  });
});
