import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bearer, RELAXED_LIMITS, signUp, type SessionBody } from "../auth/auth-test-helpers";
import { SESSION_ENDED_CLOSE } from "../events/event-session";
import { TestSocket } from "../events/test-socket";
import { startTwoProcesses, type TwoProcesses } from "../test/app-process";

/**
 * Two real Photodrop processes, A and B, on one PostgreSQL database, as behind a load balancer:
 * a session signed out through one is refused by the other at its very next request, and the
 * other closes its live socket.
 */
let two: TwoProcesses;

beforeAll(async () => {
  two = await startTwoProcesses("photodrop-sessions-", RELAXED_LIMITS);
}, 120_000);
afterAll(() => two?.stop());

async function logIn(url: string, who: { email: string; password: string }, userAgent: string): Promise<SessionBody> {
  const res = await request(url).post("/api/auth/login").set("User-Agent", userAgent).send(who);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as SessionBody;
}

describe("sessions across two processes", () => {
  it("refuses on B at the next request, and closes B's socket, a session signed out through A", async () => {
    const { a, b } = two;
    const who = { email: "owner@studio.test", password: "ownerpass1" };
    await signUp(a.url, who.email, who.password);
    const keep = await logIn(a.url, who, "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0");
    const phone = await logIn(b.url, who, "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) Safari/604.1");

    const socket = await TestSocket.open(`${b.url.replace(/^http/, "ws")}/events`);
    try {
      socket.send("subscribe-to-resources", { resources: ["clients"], token: phone.accessToken });
      expect((await socket.next(15_000)).event).toBe("subscribed");
      // B holds the phone's sign-in in memory now.
      for (let i = 0; i < 3; i += 1)
        expect((await request(b.url).get("/api/clients").set(bearer(phone.accessToken))).status).toBe(200);

      const listed = await request(a.url).get("/api/users/me/sessions").set(bearer(keep.accessToken));
      const phoneId = listed.body.find((s: { system: string | null }) => s.system?.startsWith("iOS")).id;
      const ended = await request(a.url).delete(`/api/users/me/sessions/${phoneId}`).set(bearer(keep.accessToken));
      expect(ended.status).toBe(204);

      const next = await request(b.url).get("/api/clients").set(bearer(phone.accessToken));
      expect([next.status, next.body.message]).toEqual([401, "This session has been signed out"]);
      const refresh = await request(b.url).post("/api/auth/refresh").send({ refreshToken: phone.refreshToken });
      expect(refresh.status).toBe(401);
      // Closed in its own time, bounded by the test's timeout: a fixed short limit holds only on a quiet machine.
      expect(await socket.closed).toEqual({ code: SESSION_ENDED_CLOSE, reason: "Session ended" });
      // The session that signed it out goes on, on either process.
      expect((await request(b.url).get("/api/clients").set(bearer(keep.accessToken))).status).toBe(200);
    } finally {
      socket.close();
    }
  });

  it("signs every other session out through B, refused on A at the next request", async () => {
    const { a, b } = two;
    const admin = await logIn(a.url, { email: "owner@studio.test", password: "ownerpass1" }, "curl/8.5.0");
    const who = { email: "second@studio.test", password: "secondpass1" };
    const first = await signUp(a.url, who.email, who.password);
    const approved = await request(a.url)
      .patch(`/api/users/${first.user.uid}`)
      .set(bearer(admin.accessToken))
      .send({ hasAccess: true });
    expect(approved.status).toBe(200);
    const other = await logIn(a.url, who, "curl/8.5.0");
    expect((await request(a.url).get("/api/users/me").set(bearer(other.accessToken))).status).toBe(200);
    const keep = await logIn(b.url, who, "curl/8.5.0");
    const res = await request(b.url).delete("/api/users/me/sessions").set(bearer(keep.accessToken));
    expect(res.status).toBe(204);
    expect((await request(a.url).get("/api/users/me").set(bearer(other.accessToken))).status).toBe(401);
    expect((await request(a.url).get("/api/users/me").set(bearer(first.accessToken))).status).toBe(401);
    expect((await request(a.url).get("/api/users/me").set(bearer(keep.accessToken))).status).toBe(200);
  });
});
