import http from "node:http";
import type { AddressInfo } from "node:net";
import request from "supertest";
import type WebSocket from "ws";
import { afterEach, describe, expect, it } from "vitest";
import { signUp } from "../auth/auth-test-helpers";
import { createTestApp } from "../test/harness";
import { AUTH_FAILED } from "./event-session";
import { attachEventsServer } from "./events-server";
import { openEventSockets, openFrom } from "./test-socket";
import type { AppContext } from "../context";
import { until } from "../test/wait";

/** Every client below reaches the server through the same proxy, at this address. */
const PROXY = "127.0.0.1";
const CLIENT_A = "203.0.113.10";
const CLIENT_B = "203.0.113.20";
const PER_IP = 30;
const SOCKETS_PER_IP = 20;
const PASSWORD = "secret123";
const forged = "eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJl";

/** The app and its /events hub on one listening server, as `npm start` runs them. */
async function startServer(env: Record<string, string>) {
  const t = await createTestApp({ RATE_LIMIT_PER_IP: String(PER_IP), RATE_LIMIT_WINDOW: "60", ...env });
  const server = http.createServer(t.app);
  // Idle sockets stay open for the whole test.
  const hub = attachEventsServer(server, t.ctx, { subscribeTimeoutMs: 120_000 });
  await new Promise<void>((resolve) => server.listen(0, PROXY, resolve));
  const base = `${PROXY}:${(server.address() as AddressInfo).port}`;
  const email = "owner@studio.test";
  await signUp(`http://${base}`, email, PASSWORD);
  return {
    ctx: t.ctx,
    open: (forwardedFor: string, from = PROXY) =>
      openFrom(`ws://${base}/events`, from, { "X-Forwarded-For": forwardedFor }),
    signIn: (forwardedFor: string, password = PASSWORD) =>
      request(`http://${base}`)
        .post("/api/auth/login")
        .set("X-Forwarded-For", forwardedFor)
        .send({ email, password })
        .then((res) => res.status),
    async close() {
      await hub.close();
      await new Promise((resolve) => server.close(resolve));
      await t.close();
    },
  };
}

let running: Awaited<ReturnType<typeof startServer>> | undefined;
afterEach(async () => {
  await running?.close();
  running = undefined;
});

async function openMany(count: number, open: (i: number) => Promise<{ ws: WebSocket; status?: number }>) {
  const opened: WebSocket[] = [];
  for (let i = 0; i < count; i++) {
    const { ws, status } = await open(i);
    expect(status).toBeUndefined();
    opened.push(ws);
  }
  return opened;
}

async function closeAll(s: { ctx: AppContext }, sockets: WebSocket[]) {
  await Promise.all(
    sockets.map((ws) =>
      ws.readyState === ws.CLOSED ? undefined : new Promise((r) => (ws.once("close", r), ws.close())),
    ),
  );
  // The server gives an address's slot back when it sees the connection end: once it holds no socket, every slot is back.
  await until(
    () => openEventSockets(s.ctx),
    (open) => open === 0,
  );
}

/** Sends refused tokens on `ws` until the server closes it for spending the sign-in budget. */
async function spendBudgetWithForgedTokens(ws: WebSocket) {
  const errors: string[] = [];
  ws.on("message", (raw) => errors.push(JSON.parse(raw.toString()).data.message));
  const closed = new Promise<number>((resolve) => ws.once("close", (code) => resolve(code)));
  for (let i = 0; i <= PER_IP; i++)
    ws.send(JSON.stringify({ event: "subscribe-to-resources", data: { resources: ["clients"], token: forged } }));
  expect(await closed).toBe(1008);
  expect(errors).toEqual(Array(PER_IP + 1).fill(AUTH_FAILED));
}

describe("/events behind a trusted proxy (TRUST_PROXY)", () => {
  it("keys the socket cap and the sign-in budget on the client's address, as the HTTP API does", async () => {
    const s = (running = await startServer({ TRUST_PROXY: "loopback" }));

    // One client holds its 20 idle sockets: its 21st is refused, another client behind the same proxy is not.
    const idle = await openMany(SOCKETS_PER_IP, () => s.open(CLIENT_A));
    expect((await s.open(CLIENT_A)).status).toBe(429);
    const other = await s.open(CLIENT_B);
    expect(other.status).toBeUndefined();
    expect(await s.signIn(CLIENT_B)).toBe(200);

    // The same client spends its sign-in budget with refused socket tokens.
    await spendBudgetWithForgedTokens(idle[0]);
    await closeAll(s, [...idle, other.ws]);
    expect((await s.open(CLIENT_A)).status).toBe(429);
    expect(await s.signIn(CLIENT_A)).toBe(429);

    // The other client's upgrade and sign-in still work.
    const again = await s.open(CLIENT_B);
    expect(again.status).toBeUndefined();
    expect(await s.signIn(CLIENT_B)).toBe(200);
    await closeAll(s, [again.ws]);
  }, 60_000);

  it("reads the nearest untrusted hop of X-Forwarded-For, not an address the client put in front of it", async () => {
    const s = (running = await startServer({ TRUST_PROXY: "loopback" }));
    // The proxy appends the address it saw; whatever the client sent before it is not believed.
    const idle = await openMany(SOCKETS_PER_IP, (i) => s.open(`10.9.9.${i}, ${CLIENT_A}`));
    expect((await s.open(`10.9.9.99, ${CLIENT_A}`)).status).toBe(429);
    const other = await s.open(CLIENT_B);
    expect(other.status).toBeUndefined();
    await closeAll(s, [...idle, other.ws]);
  }, 60_000);
});

describe("/events without TRUST_PROXY", () => {
  it("ignores X-Forwarded-For: a client cannot pick its own address", async () => {
    const s = (running = await startServer({}));

    // Twenty sockets, each claiming another address, all count against the connection's own.
    const idle = await openMany(SOCKETS_PER_IP, (i) => s.open(`198.51.100.${i}`));
    expect((await s.open("198.51.100.200")).status).toBe(429);
    // The cap is still per address: another real address connects.
    const elsewhere = await s.open("198.51.100.201", "127.0.0.2");
    expect(elsewhere.status).toBeUndefined();

    // Refused tokens sent under one claimed address spend the budget of the real one, whatever is claimed next.
    await spendBudgetWithForgedTokens(idle[0]);
    await closeAll(s, [...idle, elsewhere.ws]);
    expect((await s.open(CLIENT_B)).status).toBe(429);
    expect(await s.signIn(CLIENT_B)).toBe(429);
  }, 60_000);
});
