import http from "node:http";
import type { AddressInfo } from "node:net";
import request from "supertest";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, createUser, type TestApp, type TestUser } from "../test/harness";
import { attachEventsServer, userRechecksSettled } from "./events-server";
import { TestSocket } from "./test-socket";

let t: TestApp;
let server: http.Server;
let hub: { close(): Promise<void> };
let url: string;
let admin: TestUser;
const sockets: TestSocket[] = [];

async function connect(): Promise<TestSocket> {
  const socket = await TestSocket.open(url);
  sockets.push(socket);
  return socket;
}

async function watching(user: TestUser) {
  const socket = await connect();
  socket.send("subscribe-to-access", { token: user.token });
  return { socket, first: await socket.next() };
}

const put = (uid: string, body: object) => request(server).put(`/api/users/${uid}`).set(admin.auth).send(body);

beforeAll(async () => {
  t = await createTestApp();
  admin = await createUser(t.ctx, { role: "admin" });
  server = http.createServer(t.app);
  hub = attachEventsServer(server, t.ctx, { heartbeatMs: 60_000 });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `ws://127.0.0.1:${(server.address() as AddressInfo).port}/events`;
});
afterEach(() => {
  for (const socket of sockets.splice(0)) socket.close();
});
afterAll(async () => {
  await hub.close();
  await new Promise((resolve) => server.close(resolve));
  await t.close();
});

describe("subscribe-to-access", () => {
  it("lets a user who is not approved follow their own access: approval, then revocation, arrive at once", async () => {
    const waiting = await createUser(t.ctx, { hasAccess: false });
    const { socket, first } = await watching(waiting);
    expect(first).toMatchObject({ event: "subscribed", data: { access: { hasAccess: false, role: "staff" } } });

    expect((await put(waiting.uid, { hasAccess: true })).status).toBe(200);
    expect(await socket.next(15_000)).toMatchObject({
      event: "access-changed",
      data: { hasAccess: true, role: "staff" },
    });
    expect((await put(waiting.uid, { role: "admin" })).status).toBe(200);
    expect(await socket.next(15_000)).toMatchObject({
      event: "access-changed",
      data: { hasAccess: true, role: "admin" },
    });
    expect((await put(waiting.uid, { role: "staff", hasAccess: false })).status).toBe(200);
    expect(await socket.next(15_000)).toMatchObject({
      event: "access-changed",
      data: { hasAccess: false, role: "staff" },
    });
  });

  it("tells nobody about anyone else, and says nothing when a change leaves access and role as they were", async () => {
    const waiting = await createUser(t.ctx, { hasAccess: false });
    const other = await createUser(t.ctx, { hasAccess: false });
    const { socket } = await watching(waiting);
    await put(other.uid, { hasAccess: true });
    await request(server).post("/api/users/me/request-access").set(waiting.auth).send({ message: "hi" });
    await userRechecksSettled(t.ctx);
    expect(await socket.quiet()).toEqual([]);
  });

  it("needs a valid token, and stops after unsubscribing", async () => {
    const socket = await connect();
    socket.send("subscribe-to-access", {});
    expect(await socket.next()).toMatchObject({ event: "error", data: { message: "Authentication required" } });
    socket.send("subscribe-to-access", { token: "not.a.token" });
    expect(await socket.next()).toMatchObject({ event: "error", data: { message: "Failed to authenticate" } });

    const waiting = await createUser(t.ctx, { hasAccess: false });
    socket.send("subscribe-to-access", { token: waiting.token });
    expect(await socket.next()).toMatchObject({ event: "subscribed" });
    socket.send("unsubscribe-from-access", {});
    expect(await socket.next()).toMatchObject({ event: "unsubscribed", data: { access: true } });
    await put(waiting.uid, { hasAccess: true });
    await userRechecksSettled(t.ctx);
    expect(await socket.quiet()).toEqual([]);
  });
});

describe("the admin's live users list", () => {
  it("hears of a new access request and of an approval", async () => {
    const waiting = await createUser(t.ctx, { hasAccess: false });
    const socket = await connect();
    socket.send("subscribe-to-resources", { resources: ["users"], token: admin.token });
    expect(await socket.next()).toMatchObject({ event: "subscribed", data: { resources: ["users"] } });
    await request(server).post("/api/users/me/request-access").set(waiting.auth).send({ message: "let me in" });
    expect(await socket.next(15_000)).toEqual(
      expect.objectContaining({
        event: "resource-changed",
        data: { resource: "users", type: "updated", ids: [waiting.uid] },
      }),
    );
    await put(waiting.uid, { hasAccess: true });
    expect(await socket.next(15_000)).toEqual(
      expect.objectContaining({
        event: "resource-changed",
        data: { resource: "users", type: "updated", ids: [waiting.uid] },
      }),
    );
  });
});
