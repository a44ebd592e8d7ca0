import http from "node:http";
import type { AddressInfo } from "node:net";
import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../test/harness";
import { AUTH_FAILED } from "./event-session";
import { attachEventsServer } from "./events-server";
import { openFrom } from "./test-socket";

const PER_IP = 3;
let t: TestApp;
let server: http.Server;
let hub: { close(): Promise<void> };
let base: string;

beforeAll(async () => {
  t = await createTestApp({ RATE_LIMIT_PER_IP: String(PER_IP), RATE_LIMIT_WINDOW: "60" });
  server = http.createServer(t.app);
  hub = attachEventsServer(server, t.ctx);
  await new Promise<void>((resolve) => server.listen(0, "0.0.0.0", resolve));
  base = `127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await hub.close();
  await new Promise((resolve) => server.close(resolve));
  await t.close();
});

const open = (from: string) => openFrom(`ws://${base}/events`, from);

const forged = "eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJl";

describe("refused tokens on /events", () => {
  it("count against the address's sign-in budget: the socket is closed, further upgrades and sign-ins wait", async () => {
    const { ws } = await open("127.0.0.1");
    const errors: string[] = [];
    ws.on("message", (raw) => errors.push(JSON.parse(raw.toString()).data.message));
    const closed = new Promise<number>((resolve) => ws.once("close", (code) => resolve(code)));
    const frames = [
      ["subscribe-to-resources", { resources: ["clients"], token: forged }],
      ["subscribe-to-project", { projectId: 1, token: forged }],
      ["subscribe-to-access", { token: forged }],
      ["subscribe-to-resources", { resources: ["clients"], token: forged }],
    ] as const;
    for (const [event, data] of frames) ws.send(JSON.stringify({ event, data }));

    expect(await closed).toBe(1008);
    expect(errors).toEqual(Array(PER_IP + 1).fill(AUTH_FAILED));
    expect((await open("127.0.0.1")).status).toBe(429);
    const signIn = await request(`http://${base}`)
      .post("/api/auth/login")
      .send({ email: "someone@studio.test", password: "whatever1" });
    expect(signIn.status).toBe(429);
    // Another address is not affected.
    const other = await open("127.0.0.2");
    expect(other.status).toBeUndefined();
    other.ws.close();
  });
});
