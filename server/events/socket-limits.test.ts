import http from "node:http";
import type { AddressInfo } from "node:net";
import WebSocket from "ws";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, createUser, type TestApp, type TestUser } from "../test/harness";
import { attachEventsServer } from "./events-server";
import { openFrom } from "./test-socket";

let t: TestApp;
let server: http.Server;
let hub: { close(): Promise<void> };
let url: string;
let user: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  user = await createUser(t.ctx);
  server = http.createServer(t.app);
  hub = attachEventsServer(server, t.ctx);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `ws://127.0.0.1:${(server.address() as AddressInfo).port}/events`;
});
afterAll(async () => {
  await hub.close();
  await new Promise((resolve) => server.close(resolve));
  await t.close();
});

const open = (from: string) => openFrom(url, from);

describe("/events socket limits", () => {
  it("refuses the 21st socket from one address with 429 while another address still connects", async () => {
    const opened: WebSocket[] = [];
    for (let i = 0; i < 20; i++) {
      const { ws, status } = await open("127.0.0.1");
      expect(status).toBeUndefined();
      opened.push(ws);
    }
    const refused = await open("127.0.0.1");
    expect(refused.status).toBe(429);
    const other = await open("127.0.0.2");
    expect(other.status).toBeUndefined();
    other.ws.close();
    opened[0].close();
    await new Promise((resolve) => opened[0].once("close", resolve));
    await new Promise((resolve) => setTimeout(resolve, 100));
    const again = await open("127.0.0.1");
    expect(again.status).toBeUndefined();
    for (const ws of [...opened, again.ws]) ws.close();
  }, 30_000);

  it("closes a socket with no successful subscription after 10 s, and keeps a subscribed one", async () => {
    const idle = (await open("127.0.0.3")).ws;
    const busy = (await open("127.0.0.3")).ws;
    busy.send(JSON.stringify({ event: "subscribe-to-resources", data: { resources: ["clients"], token: user.token } }));
    const started = Date.now();
    const code = await new Promise<number>((resolve) => idle.once("close", (c) => resolve(c)));
    const after = Date.now() - started;
    expect(code).toBe(4401);
    expect(after).toBeGreaterThan(8_000);
    expect(after).toBeLessThan(14_000);
    expect(busy.readyState).toBe(WebSocket.OPEN);
    busy.close();
  }, 30_000);
});
