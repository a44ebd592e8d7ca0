import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestApp } from "../test/harness";
import { appWithOwner, cookieSet, OWNER as owner } from "./cookie-test-helpers";
import { hashSecretToken } from "./secret-tokens";
import { REFRESH_COOKIE, SESSION_HEADER } from "./session-cookie";
import { REFRESH_GRACE_SECONDS } from "./sessions";

let t: TestApp;

beforeAll(async () => {
  t = await appWithOwner();
});
afterAll(() => t.close());

const browser = { [SESSION_HEADER]: "cookie" };

/** The refresh cookie a response sets, as `name=value`, and its attributes. */
const refreshCookie = (res: request.Response) => cookieSet(res, REFRESH_COOKIE);

/** Moves the rotation of the cookie's token back past the grace, as if it had been replaced long ago. */
async function outliveGrace(pair: string) {
  const token = pair.slice(pair.indexOf("=") + 1);
  const replacedAt = new Date(Date.now() - (REFRESH_GRACE_SECONDS + 1) * 1000).toISOString();
  await t.ctx
    .db("refresh_tokens")
    .where({ token_hash: hashSecretToken(token) })
    .update({ revoked_at: replacedAt });
}

const refresh = (pair: string) => request(t.app).post("/api/auth/refresh").set(browser).set("Cookie", pair);

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

  it("refreshes with the cookie and the header, rotating it; the replaced cookie is refused once its grace has passed", async () => {
    const first = refreshCookie(await signIn()).pair;
    const refreshed = await request(t.app).post("/api/auth/refresh").set(browser).set("Cookie", first);
    expect(refreshed.status).toBe(200);
    expect(refreshed.body.accessToken).toEqual(expect.any(String));
    expect(refreshed.body).not.toHaveProperty("refreshToken");
    const second = refreshCookie(refreshed).pair;
    expect(second).not.toBe(first);
    await outliveGrace(first);
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

describe("tabs of one browser refreshing with the same cookie (no Web Locks over plain HTTP)", () => {
  const liveTokens = async () => (await t.ctx.db("refresh_tokens").whereNull("revoked_at")).length;

  it("answers both of two refreshes sent at once with the same new cookie, and the sign-in goes on", async () => {
    const first = refreshCookie(await signIn()).pair;
    const before = await liveTokens();
    const answers = await Promise.all([refresh(first), refresh(first)]);
    expect(answers.map((a) => a.status)).toEqual([200, 200]);
    const [a, b] = answers.map((a) => refreshCookie(a).pair);
    expect(a).toBe(b);
    expect(a).not.toBe(first);
    // One successor, not two live tokens: nothing is left over for a thief to find later.
    expect(await liveTokens()).toBe(before);
    const next = await refresh(a);
    expect(next.status).toBe(200);
    expect(refreshCookie(next).pair).not.toBe(a);
  });

  it("answers a cookie repeated within the grace (a reload that lost the answer) with its successor", async () => {
    const first = refreshCookie(await signIn()).pair;
    const second = refreshCookie(await refresh(first)).pair;
    const repeated = await refresh(first);
    expect(repeated.status).toBe(200);
    expect(refreshCookie(repeated).pair).toBe(second);
    expect(
      (await request(t.app).get("/api/users/me").set("Authorization", `Bearer ${repeated.body.accessToken}`)).status,
    ).toBe(200);
  });

  it("treats a cookie replayed after the grace as stolen: the whole sign-in ends", async () => {
    const first = refreshCookie(await signIn()).pair;
    const second = refreshCookie(await refresh(first)).pair;
    await outliveGrace(first);
    expect((await refresh(first)).status).toBe(401);
    expect((await refresh(second)).status).toBe(401);
  });

  it("treats a cookie whose successor was itself replaced as stolen, even within the grace", async () => {
    const first = refreshCookie(await signIn()).pair;
    const second = refreshCookie(await refresh(first)).pair;
    const third = refreshCookie(await refresh(second)).pair;
    expect((await refresh(first)).status).toBe(401);
    expect((await refresh(third)).status).toBe(401);
  });

  it("gives nothing back for a cookie whose successor was signed out, even within the grace", async () => {
    const first = refreshCookie(await signIn()).pair;
    const second = refreshCookie(await refresh(first)).pair;
    expect((await request(t.app).post("/api/auth/logout").set(browser).set("Cookie", second)).status).toBe(204);
    expect((await refresh(first)).status).toBe(401);
  });

  it("gives API clients, which keep their own token, no grace: a repeat is a replay", async () => {
    const { body } = await request(t.app).post("/api/auth/login").send(owner);
    const rotated = await request(t.app).post("/api/auth/refresh").send({ refreshToken: body.refreshToken });
    expect(rotated.status).toBe(200);
    expect((await request(t.app).post("/api/auth/refresh").send({ refreshToken: body.refreshToken })).status).toBe(401);
    expect(
      (await request(t.app).post("/api/auth/refresh").send({ refreshToken: rotated.body.refreshToken })).status,
    ).toBe(401);
  });
});
