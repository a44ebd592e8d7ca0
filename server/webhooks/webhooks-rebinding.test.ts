import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, createUser, type TestApp, type TestUser } from "../test/harness";
import { until } from "../test/wait";
import type { Resolve } from "./address-guard";
import { sendWebhook } from "./deliverer";
import { startWebhookWorker } from "./outbox-worker";
import { startReceiver, type Receiver } from "./test-receiver";

/** A documentation address (TEST-NET-1): public to the guard, and nothing answers there. */
const PUBLIC = "192.0.2.1";

let t: TestApp;
let admin: TestUser;
let receiver: Receiver;
let stopWorker: () => Promise<void>;
/** Every name the deliverer asked for, in order. */
const asked: string[] = [];

/**
 * The resolver a rebinding attacker runs: `localhost` answers a public address the first time and
 * loopback (where the receiver listens) after, as the system's resolver does; any other name
 * (`inside.example.test`, which the system cannot resolve) answers loopback. A deliverer that
 * looked the name up again to connect would reach the receiver.
 */
const attackersResolver: Resolve = (host) => {
  asked.push(host);
  const first = asked.filter((name) => name === host).length === 1;
  const address = host === "localhost" && first ? PUBLIC : "127.0.0.1";
  return Promise.resolve([{ address, family: 4 }]);
};

beforeAll(async () => {
  // No WEBHOOK_ALLOW_PRIVATE.
  t = await createTestApp();
  admin = await createUser(t.ctx, { role: "admin" });
  receiver = await startReceiver();
  stopWorker = startWebhookWorker(t.ctx, {
    pollMs: 20,
    retryWaitsMs: [20],
    timeoutMs: 300,
    resolve: attackersResolver,
  });
});
afterAll(async () => {
  await stopWorker?.();
  await receiver?.close();
  await t?.close();
});

const api = () => request(t.app);

async function endpointFor(host: string) {
  const created = await api()
    .post("/api/webhooks")
    .set(admin.auth)
    .send({ url: receiver.url("/hook", host), events: ["client.created"] });
  expect(created.status).toBe(201);
  return created.body.id as number;
}

interface Attempt {
  status: number | null;
  ok: boolean;
  response: string;
}

/** Once `count` attempts are recorded, or one got through. */
const attemptsOf = (id: number, count: number) =>
  until(
    async () => (await api().get(`/api/webhooks/${id}/attempts`).set(admin.auth)).body as Attempt[],
    (list) => list.length >= count || list.some((attempt) => attempt.ok),
  );

describe("DNS rebinding", () => {
  it("connects only to the address it checked: a name turning to loopback after the check never reaches loopback", async () => {
    const id = await endpointFor("localhost");
    await api().post(`/api/webhooks/${id}/test`).set(admin.auth).expect(202);
    // Newest first: the retry asked again, got loopback, and was refused.
    const attempts = await attemptsOf(id, 2);
    expect(attempts).toHaveLength(2);
    const [second, first] = attempts;
    // The first was checked (public) and sent there, not to what a second lookup would have answered.
    expect(first).toMatchObject({ status: null, ok: false });
    expect(first.response).not.toMatch(/refused/);
    expect(second).toMatchObject({ status: null, ok: false });
    expect(second.response).toBe(
      "refused: localhost resolves to 127.0.0.1 is a loopback or private address (allowed only with WEBHOOK_ALLOW_PRIVATE=1)",
    );
    // One lookup an attempt: the connection never asked DNS again.
    expect(asked.filter((name) => name === "localhost")).toHaveLength(2);
    expect(receiver.connections).toBe(0);
    expect(receiver.received).toHaveLength(0);
  });

  it("refuses a name resolving to a loopback address without WEBHOOK_ALLOW_PRIVATE, connecting nowhere", async () => {
    const id = await endpointFor("inside.example.test");
    await api().post(`/api/webhooks/${id}/test`).set(admin.auth).expect(202);
    const [attempt] = await attemptsOf(id, 1);
    expect(attempt).toMatchObject({ status: null, ok: false });
    expect(attempt.response).toMatch(/^refused: inside\.example\.test resolves to 127\.0\.0\.1 is a loopback/);
    expect(receiver.connections).toBe(0);
    expect(receiver.received).toHaveLength(0);
  });

  it("reaches the checked address under the URL's name (the same resolver, private addresses allowed)", async () => {
    const outcome = await sendWebhook(receiver.url("/pinned", "inside.example.test"), {}, '{"type":"webhook.test"}', {
      allowPrivate: true,
      timeoutMs: 2000,
      resolve: attackersResolver,
    });
    expect(outcome).toMatchObject({ status: 200, ok: true, response: "thanks" });
    expect(receiver.received).toHaveLength(1);
    expect(receiver.received[0].path).toBe("/pinned");
    expect(receiver.received[0].headers.host).toMatch(/^inside\.example\.test:\d+$/);
  });
});
