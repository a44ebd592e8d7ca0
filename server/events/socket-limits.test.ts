import http from "node:http";
import type { AddressInfo } from "node:net";
import WebSocket from "ws";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, createUser, type TestUser } from "../test/harness";
import { attachEventsServer } from "./events-server";
import { openEventSockets, openFrom } from "./test-socket";
import { until } from "../test/wait";

/** The app with its /events hub on a listening server. */
async function startHub(env: Record<string, string> = {}) {
  const app = await createTestApp(env);
  const server = http.createServer(app.app);
  const hub = attachEventsServer(server, app.ctx);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    app,
    url: `ws://127.0.0.1:${(server.address() as AddressInfo).port}/events`,
    async close() {
      await hub.close();
      await new Promise((resolve) => server.close(resolve));
      await app.close();
    },
  };
}

let hub: Awaited<ReturnType<typeof startHub>>;
let url: string;
let user: TestUser;

beforeAll(async () => {
  hub = await startHub();
  url = hub.url;
  user = await createUser(hub.app.ctx);
});
afterAll(() => hub.close());

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
    // Gone from the server (and the address's slot given back): the twenty less the one closed.
    await until(
      () => openEventSockets(hub.app.ctx),
      (open) => open === 19,
    );
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

describe("/events overall socket cap", () => {
  it("refuses an upgrade with 503 once EVENTS_MAX_SOCKETS are open, whatever the address", async () => {
    const capped = await startHub({ EVENTS_MAX_SOCKETS: "3" });
    try {
      const opened = await Promise.all(
        ["127.0.0.11", "127.0.0.12", "127.0.0.13"].map((from) => openFrom(capped.url, from)),
      );
      expect(opened.map((o) => o.status)).toEqual([undefined, undefined, undefined]);
      expect((await openFrom(capped.url, "127.0.0.14")).status).toBe(503);
      opened[0].ws.close();
      await until(
        () => openEventSockets(capped.app.ctx),
        (open) => open === 2,
      );
      const again = await openFrom(capped.url, "127.0.0.14");
      expect(again.status).toBeUndefined();
      for (const { ws } of [...opened, again]) ws.close();
    } finally {
      await capped.close();
    }
  }, 30_000);
});
