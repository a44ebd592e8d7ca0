import http from "node:http";
import type { AddressInfo } from "node:net";
import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, createUser, type TestApp, type TestUser } from "../test/harness";
import { until } from "../test/wait";
import { addressProblem } from "./address-guard";
import { sendWebhook } from "./deliverer";
import { startWebhookWorker } from "./outbox-worker";
import { startReceiver, type Receiver } from "./test-receiver";

let t: TestApp;
let admin: TestUser;
let receiver: Receiver;
let stopWorker: () => Promise<void>;

beforeAll(async () => {
  // No WEBHOOK_ALLOW_PRIVATE: loopback is refused. Failing once is failing "for days" here.
  t = await createTestApp({}, { captureLog: true });
  admin = await createUser(t.ctx, { role: "admin" });
  receiver = await startReceiver();
  stopWorker = startWebhookWorker(t.ctx, { pollMs: 20, retryWaitsMs: [20], disableAfterMs: 0 });
});
afterAll(async () => {
  await stopWorker?.();
  await receiver?.close();
  await t?.close();
});

const api = () => request(t.app);

describe("server-side request forgery", () => {
  it("refuses loopback and private addresses at creation without WEBHOOK_ALLOW_PRIVATE, and metadata always", async () => {
    for (const url of [
      receiver.url(),
      "http://10.0.0.5/",
      "http://[::1]/",
      "http://[fd12::1]/",
      "http://169.254.169.254/",
    ]) {
      const res = await api()
        .post("/api/webhooks")
        .set(admin.auth)
        .send({ url, events: ["client.created"] });
      expect(res.status, url).toBe(400);
      expect(res.body.errors.url).toMatch(/never allowed|WEBHOOK_ALLOW_PRIVATE/);
    }
  });

  it("refuses a name resolving to 127.0.0.1 when sending, sends nothing, and turns the failing endpoint off with a mail to the admins", async () => {
    const created = await api()
      .post("/api/webhooks")
      .set(admin.auth)
      .send({ url: receiver.url("/named", "localhost"), events: ["client.created"] });
    expect(created.status).toBe(201);
    await api().post(`/api/webhooks/${created.body.id}/test`).set(admin.auth).expect(202);
    const attempts = await until(
      async () =>
        (await api().get(`/api/webhooks/${created.body.id}/attempts`).set(admin.auth)).body as Array<{
          response: string;
        }>,
      (list) => list.length === 1,
    );
    expect(attempts[0]).toMatchObject({ status: null, ok: false });
    expect(attempts[0].response).toMatch(/refused: localhost resolves to (127\.0\.0\.1|::1) is a loopback/);
    expect(receiver.received).toHaveLength(0);
    const endpoint = await until(
      async () => (await api().get(`/api/webhooks/${created.body.id}`).set(admin.auth)).body,
      (w: { active: boolean }) => !w.active,
    );
    expect(endpoint.active).toBe(false);
    await until(
      () => t.logLines.filter((l) => l.includes("A webhook endpoint was turned off") && l.includes(admin.email)),
      (l) => l.length === 1,
    );
  });

  it("judges addresses: link-local and metadata never, private only when allowed, public always", () => {
    for (const never of [
      "169.254.169.254",
      "169.254.1.1",
      "fe80::1",
      "fd00:ec2::254",
      "::ffff:169.254.169.254",
      "0.0.0.0",
    ]) {
      expect(addressProblem(never, true), never).toMatch(/never allowed/);
    }
    for (const inside of [
      "127.0.0.1",
      "10.1.2.3",
      "172.16.0.1",
      "192.168.1.1",
      "::1",
      "fc00::1",
      "fd12::1",
      "::ffff:10.0.0.1",
    ]) {
      expect(addressProblem(inside, false), inside).toMatch(/WEBHOOK_ALLOW_PRIVATE/);
      expect(addressProblem(inside, true), inside).toBeUndefined();
    }
    for (const outside of ["93.184.216.34", "2606:2800:220:1::1", "172.32.0.1"]) {
      expect(addressProblem(outside, false), outside).toBeUndefined();
    }
  });
});

describe("sending", () => {
  const body = JSON.stringify({ type: "webhook.test", timestamp: new Date().toISOString(), data: {} });
  const options = { allowPrivate: true, timeoutMs: 300 };

  it("does not follow a redirect, and gives up on a receiver that does not answer in time", async () => {
    let hits = 0;
    const server = http.createServer((req, res) => {
      hits += 1;
      if (req.url === "/redirect") res.writeHead(307, { Location: "/elsewhere" }).end();
      // /silent never answers.
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const redirected = await sendWebhook(`${base}/redirect`, {}, body, options);
      expect(redirected).toMatchObject({ status: 307, ok: false });
      expect(hits).toBe(1);
      const silent = await sendWebhook(`${base}/silent`, {}, body, options);
      expect(silent).toMatchObject({ status: null, ok: false, response: "no answer within 300 ms" });
      expect(silent.durationMs).toBeGreaterThanOrEqual(290);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
