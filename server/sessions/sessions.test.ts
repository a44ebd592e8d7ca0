import http from "node:http";
import type { AddressInfo } from "node:net";
import request from "supertest";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { bearer, RELAXED_LIMITS, signUp, type SessionBody } from "../auth/auth-test-helpers";
import { cookieSet } from "../auth/cookie-test-helpers";
import { DEVICE_COOKIE } from "../auth/device-cookie";
import { REFRESH_COOKIE, SESSION_HEADER } from "../auth/session-cookie";
import { attachEventsServer, userRechecksSettled } from "../events/events-server";
import { SESSION_ENDED_CLOSE } from "../events/event-session";
import { TestSocket } from "../events/test-socket";
import { createTestApp, createUser, type TestApp } from "../test/harness";
import { hashPassword } from "../auth/passwords";
import { startSmtpInbox, type SmtpInbox } from "../test/smtp-inbox";
import { eventually } from "../test/wait";
import { mailsSettled } from "../mail/mailer";

const FIREFOX = "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0";
const SAFARI =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1";

let t: TestApp;
let smtp: SmtpInbox;
let server: http.Server;
let hub: { close(): Promise<void> };
let socketUrl: string;
let n = 0;

beforeAll(async () => {
  smtp = await startSmtpInbox();
  t = await createTestApp({
    ...RELAXED_LIMITS,
    TRUST_PROXY: "loopback",
    SMTP_URL: smtp.url,
    PUBLIC_URL: "https://photos.example.test/",
  });
  server = http.createServer(t.app);
  hub = attachEventsServer(server, t.ctx);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  socketUrl = `ws://127.0.0.1:${(server.address() as AddressInfo).port}/events`;
  // The first account is the admin: the others' tests need an approved account of their own.
  await signUp(t.app, "admin@studio.test", "adminpass1");
});
afterAll(async () => {
  await hub.close();
  await new Promise((resolve) => server.close(resolve));
  await t.close();
  await smtp.close();
});
afterEach(() => {
  vi.useRealTimers();
});

/** A new approved account (the admin approves it directly in the database) and its e-mail. */
async function account(): Promise<{ email: string; password: string }> {
  const email = `person${++n}@studio.test`;
  const session = await signUp(t.app, email, "personpass1");
  await t.ctx.db("users").where({ uid: session.user.uid }).update({ has_access: true });
  return { email, password: "personpass1" };
}

async function logIn(who: { email: string; password: string }, userAgent = FIREFOX): Promise<SessionBody> {
  const res = await request(t.app).post("/api/auth/login").set("User-Agent", userAgent).send(who);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as SessionBody;
}

const sessionsOf = (session: SessionBody) =>
  request(t.app).get("/api/users/me/sessions").set(bearer(session.accessToken));

describe("the sessions list", () => {
  it("lists each sign-in with its browser, system and address, marking this one", async () => {
    const who = await account();
    const laptop = await logIn(who, FIREFOX);
    await logIn(who, SAFARI);
    const res = await sessionsOf(laptop);
    expect(res.status).toBe(200);
    const self = res.body.find((s: { current: boolean }) => s.current);
    const phone = res.body.find((s: { userAgent: string }) => s.userAgent === SAFARI);
    expect(self).toMatchObject({ browser: "Firefox 128", system: "Linux", userAgent: FIREFOX, current: true });
    expect(phone).toMatchObject({ browser: "Safari 17", system: "iOS 17.5", current: false });
    expect(self.address).toMatch(/127\.0\.0\.1/);
    expect(res.body.filter((s: { current: boolean }) => s.current)).toHaveLength(1);
    // Every session of the account (the sign-up's too), each once.
    expect(new Set(res.body.map((s: { id: string }) => s.id)).size).toBe(res.body.length);
  });

  it("keeps one session through refreshes", async () => {
    const who = await account();
    const session = await logIn(who);
    const before = (await sessionsOf(session)).body.length;
    const refreshed = await request(t.app).post("/api/auth/refresh").send({ refreshToken: session.refreshToken });
    expect(refreshed.status).toBe(200);
    const after = await sessionsOf(refreshed.body);
    expect(after.body).toHaveLength(before);
    expect(after.body.filter((s: { current: boolean }) => s.current)).toHaveLength(1);
  });

  it("records activity at most once a minute", async () => {
    const who = await account();
    const session = await logIn(who);
    const idOf = async () => (await sessionsOf(session)).body.find((s: { current: boolean }) => s.current);
    const first = await idOf();
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + 61_000 });
    await sessionsOf(session);
    // The first request's own write (real time) may land after `first` was read: wait for the later one.
    const later = await eventually(async () => {
      const now = await idOf();
      return new Date(now.lastActiveAt).getTime() > new Date(first.createdAt).getTime() + 60_000 ? now : undefined;
    });
    expect(new Date(later.lastActiveAt).getTime()).toBeGreaterThan(new Date(first.createdAt).getTime() + 60_000);
  });
});

describe("signing sessions out", () => {
  it("ends one session's refresh and access tokens at once; the others go on", async () => {
    const who = await account();
    const keep = await logIn(who);
    const other = await logIn(who, SAFARI);
    // The other session's token is in the signed-in users cache now.
    expect((await request(t.app).get("/api/users/me").set(bearer(other.accessToken))).status).toBe(200);
    const id = (await sessionsOf(keep)).body.find((s: { browser: string }) => s.browser === "Safari 17").id;
    const ended = await request(t.app).delete(`/api/users/me/sessions/${id}`).set(bearer(keep.accessToken));
    expect(ended.status).toBe(204);
    const refused = await request(t.app).get("/api/users/me").set(bearer(other.accessToken));
    expect([refused.status, refused.body.message]).toEqual([401, "This session has been signed out"]);
    const refresh = await request(t.app).post("/api/auth/refresh").send({ refreshToken: other.refreshToken });
    expect(refresh.status).toBe(401);
    expect((await request(t.app).get("/api/users/me").set(bearer(keep.accessToken))).status).toBe(200);
    expect((await sessionsOf(keep)).body.map((s: { id: string }) => s.id)).not.toContain(id);
  });

  it("refuses the refresh token a refresh rotated in while its session was ending", async () => {
    const who = await account();
    const session = await logIn(who);
    const id = (await sessionsOf(session)).body.find((s: { current: boolean }) => s.current).id;
    // What a refresh committing just after the end leaves: the session ended, its newest token not revoked.
    await t.ctx.db("user_sessions").where({ id }).update({ ended_at: new Date().toISOString() });
    const refresh = await request(t.app).post("/api/auth/refresh").send({ refreshToken: session.refreshToken });
    expect(refresh.status).toBe(401);
    expect(await t.ctx.db("refresh_tokens").where({ family: id }).whereNull("revoked_at")).toEqual([]);
  });

  it("refuses an API token: sessions are a signed-in person's to see and end", async () => {
    const session = await logIn(await account());
    const before = (await sessionsOf(session)).body.length;
    const made = await request(t.app)
      .post("/api/users/me/tokens")
      .set(bearer(session.accessToken))
      .send({ name: "Script", scope: "write", expiresAt: null });
    expect(made.status).toBe(201);
    const token = bearer(made.body.token);
    expect((await request(t.app).get("/api/users/me/sessions").set(token)).status).toBe(403);
    expect((await request(t.app).delete("/api/users/me/sessions").set(token)).status).toBe(403);
    expect((await sessionsOf(session)).body).toHaveLength(before);
  });

  it("answers 404 for an unknown session or another user's", async () => {
    const mine = await logIn(await account());
    const theirs = await logIn(await account());
    const theirId = (await sessionsOf(theirs)).body.find((s: { current: boolean }) => s.current).id;
    const other = await request(t.app).delete(`/api/users/me/sessions/${theirId}`).set(bearer(mine.accessToken));
    expect(other.status).toBe(404);
    expect((await request(t.app).get("/api/users/me").set(bearer(theirs.accessToken))).status).toBe(200);
    const unknown = await request(t.app).delete("/api/users/me/sessions/not-a-session").set(bearer(mine.accessToken));
    expect(unknown.status).toBe(404);
  });

  it("signs every other session out, keeping this one", async () => {
    const who = await account();
    const keep = await logIn(who);
    const others = [await logIn(who, SAFARI), await logIn(who, SAFARI)];
    const res = await request(t.app).delete("/api/users/me/sessions").set(bearer(keep.accessToken));
    expect(res.status).toBe(204);
    for (const other of others)
      expect((await request(t.app).get("/api/users/me").set(bearer(other.accessToken))).status).toBe(401);
    const left = await sessionsOf(keep);
    expect(left.body).toEqual([expect.objectContaining({ current: true })]);
  });

  it("ends the access token as well when its session signs out", async () => {
    const session = await logIn(await account());
    const out = await request(t.app).post("/api/auth/logout").send({ refreshToken: session.refreshToken });
    expect(out.status).toBe(204);
    expect((await request(t.app).get("/api/users/me").set(bearer(session.accessToken))).status).toBe(401);
  });

  it("closes the live socket of a session signed out", async () => {
    const who = await account();
    const keep = await logIn(who);
    const other = await logIn(who, SAFARI);
    const socket = await TestSocket.open(socketUrl);
    const bystander = await TestSocket.open(socketUrl);
    try {
      socket.send("subscribe-to-resources", { resources: ["clients"], token: other.accessToken });
      expect(await socket.next()).toMatchObject({ event: "subscribed" });
      bystander.send("subscribe-to-resources", { resources: ["clients"], token: keep.accessToken });
      expect(await bystander.next()).toMatchObject({ event: "subscribed" });
      const id = (await sessionsOf(keep)).body.find((s: { browser: string }) => s.browser === "Safari 17").id;
      expect((await request(t.app).delete(`/api/users/me/sessions/${id}`).set(bearer(keep.accessToken))).status).toBe(
        204,
      );
      // Closed in its own time, bounded by the test's timeout: a fixed short limit holds only on a quiet machine.
      expect(await socket.closed).toEqual({ code: SESSION_ENDED_CLOSE, reason: "Session ended" });
      // The same user's other session keeps its socket and subscription.
      await userRechecksSettled(t.ctx);
      expect(await bystander.quiet()).toEqual([]);
      t.ctx.events.resourceChanged({ resource: "clients", type: "created", ids: [1] });
      expect(await bystander.next()).toMatchObject({ event: "resource-changed" });
    } finally {
      socket.close();
      bystander.close();
    }
  });
});

describe("a sign-in from somewhere new", () => {
  const mailsTo = (email: string) => smtp.mails.filter((m) => m.to.includes(email) && /New sign-in/.test(m.body));
  const signIn = (who: { email: string; password: string }, from: { ip: string; agent?: string; cookie?: string }) => {
    const req = request(t.app)
      .post("/api/auth/login")
      .set(SESSION_HEADER, "cookie")
      .set("X-Forwarded-For", from.ip)
      .set("User-Agent", from.agent ?? "");
    if (from.cookie) void req.set("Cookie", from.cookie);
    return req.send(who);
  };

  it("mails only without the device cookie, from an address the account never signed in from", async () => {
    const who = await account();
    const away = await signIn(who, { ip: "203.0.113.7", agent: FIREFOX });
    expect(away.status).toBe(200);
    const mail = await eventually(() => mailsTo(who.email)[0]);
    expect(mail.body).toContain("Firefox 128 on Linux");
    expect(mail.body).toContain("203.0.113.7");
    expect(mail.body).toContain("https://photos.example.test/");
    // The browser's device cookie, anywhere: no mail.
    const device = cookieSet(away, DEVICE_COOKIE).pair;
    expect((await signIn(who, { ip: "198.51.100.9", agent: FIREFOX, cookie: device })).status).toBe(200);
    // Without it, from where the account signed in before, in any browser: no mail.
    expect((await signIn(who, { ip: "203.0.113.7", agent: SAFARI })).status).toBe(200);
    // A script signing in again and again from where the sign-up came from: no mail.
    for (let i = 0; i < 3; i++) await logIn(who, "");
    // Another address: a mail.
    expect((await signIn(who, { ip: "192.0.2.44", agent: SAFARI })).status).toBe(200);
    await mailsSettled(t.ctx);
    const mails = mailsTo(who.email).map((m) => /192\.0\.2\.44|203\.0\.113\.7/.exec(m.body)?.[0]);
    expect(mails).toEqual(["203.0.113.7", "192.0.2.44"]);
    expect(mailsTo(who.email)[1].body).toContain("Safari 17 on iOS");
  });

  /** An approved account that never signed in (made by an admin's tools, not by signing up). */
  async function neverSignedIn(): Promise<{ email: string; password: string }> {
    const user = await createUser(t.ctx, { email: `person${++n}@studio.test` });
    await t.ctx
      .db("users")
      .where({ uid: user.uid })
      .update({ password_hash: await hashPassword("personpass1") });
    return { email: user.email, password: "personpass1" };
  }

  /** Ends every session of the account, as 'Sign out everywhere else' and then 'Sign out' in the last one do. */
  async function signOutEverywhere(signedIn: request.Response): Promise<void> {
    const others = await request(t.app).delete("/api/users/me/sessions").set(bearer(signedIn.body.accessToken));
    expect(others.status).toBe(204);
    const out = await request(t.app)
      .post("/api/auth/logout")
      .set(SESSION_HEADER, "cookie")
      .set("Cookie", cookieSet(signedIn, REFRESH_COOKIE).pair);
    expect(out.status).toBe(204);
    expect((await request(t.app).get("/api/users/me").set(bearer(signedIn.body.accessToken))).status).toBe(401);
  }

  it("does not mail an account's first sign-in, nor one from the same place; mails one from a new place", async () => {
    const who = await neverSignedIn();
    expect((await signIn(who, { ip: "203.0.113.8", agent: FIREFOX })).status).toBe(200);
    expect((await signIn(who, { ip: "203.0.113.8", agent: SAFARI })).status).toBe(200);
    await mailsSettled(t.ctx);
    expect(mailsTo(who.email)).toEqual([]);
    expect((await signIn(who, { ip: "203.0.113.9", agent: FIREFOX })).status).toBe(200);
    const mail = await eventually(() => mailsTo(who.email)[0]);
    expect(mail.body).toContain("203.0.113.9");
  });

  it("still mails a sign-in from a new place after signing out everywhere, and not one from a known place", async () => {
    const who = await neverSignedIn();
    const { uid } = await t.ctx.db("users").where({ email: who.email }).first("uid");
    const first = await signIn(who, { ip: "198.51.100.20", agent: FIREFOX });
    const second = await signIn(who, { ip: "198.51.100.20", agent: SAFARI });
    await signOutEverywhere(second);
    expect((await request(t.app).get("/api/users/me").set(bearer(first.body.accessToken))).status).toBe(401);
    expect((await signIn(who, { ip: "198.51.100.21", agent: SAFARI })).status).toBe(200);
    // The ended sessions went at this sign-in: only its own is kept, yet the place was known.
    expect(await t.ctx.db("user_sessions").where({ user_uid: uid }).pluck("address")).toEqual([
      expect.stringContaining("198.51.100.21"),
    ]);
    const mail = await eventually(() => mailsTo(who.email)[0]);
    expect(mail.body).toContain("198.51.100.21");
    // Every session run out instead: a known place sends nothing, a new one mails.
    await t.ctx
      .db("user_sessions")
      .where({ user_uid: uid })
      .update({ expires_at: new Date(0).toISOString() });
    expect((await signIn(who, { ip: "198.51.100.20", agent: FIREFOX })).status).toBe(200);
    await signOutEverywhere(await signIn(who, { ip: "198.51.100.21", agent: FIREFOX }));
    expect((await signIn(who, { ip: "198.51.100.21", agent: SAFARI })).status).toBe(200);
    await mailsSettled(t.ctx);
    expect(mailsTo(who.email)).toHaveLength(1);
    expect((await signIn(who, { ip: "198.51.100.22", agent: FIREFOX })).status).toBe(200);
    await eventually(() => mailsTo(who.email)[1]);
    expect(mailsTo(who.email)[1].body).toContain("198.51.100.22");
  });
});
