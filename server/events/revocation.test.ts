import http from "node:http";
import type { AddressInfo } from "node:net";
import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insertResetToken } from "../auth/password-reset.repository";
import { newSecretToken, secondsFromNow } from "../auth/secret-tokens";
import { createTestApp, createUser, type TestApp } from "../test/harness";
import { attachEventsServer } from "./events-server";
import { TestSocket } from "./test-socket";

let t: TestApp;
let server: http.Server;
let hub: { close(): Promise<void> };
let url: string;

beforeAll(async () => {
  t = await createTestApp();
  server = http.createServer(t.app);
  // The default heartbeat (30 s): only an announcement can end the subscription within the test.
  hub = attachEventsServer(server, t.ctx);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `ws://127.0.0.1:${(server.address() as AddressInfo).port}/events`;
});
afterAll(async () => {
  await hub.close();
  await new Promise((resolve) => server.close(resolve));
  await t.close();
});

describe("a password reset and live subscriptions", () => {
  it("ends the reset user's subscriptions within 2 s and sends nothing after", async () => {
    const user = await createUser(t.ctx);
    const socket = await TestSocket.open(url);
    socket.send("subscribe-to-resources", { resources: ["clients"], token: user.token });
    expect(await socket.next()).toMatchObject({ event: "subscribed" });

    const { token, hash } = newSecretToken();
    await insertResetToken(t.ctx.db, { uid: user.uid, hash, expiresAt: secondsFromNow(600) });
    const reset = await request(t.app)
      .post("/api/auth/password-reset/confirm")
      .send({ token, password: "a-new-password-1" });
    expect(reset.status).toBe(204);
    const resetAt = Date.now();

    expect(await socket.next(2_000)).toMatchObject({ event: "error", data: { message: "Failed to authenticate" } });
    expect(Date.now() - resetAt).toBeLessThan(2_000);
    t.ctx.events.resourceChanged({ resource: "clients", type: "created", ids: [1] });
    expect(await socket.quiet()).toEqual([]);
    socket.close();
  });
});
