import fs from "node:fs";
import http from "node:http";
import net from "node:net";
import type { AddressInfo } from "node:net";
import { decodeJwt } from "jose";
import request from "supertest";
import WebSocket from "ws";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createTokenService } from "../auth/tokens";
import { addPhoto, addSlowAttachment } from "../publish/test-fixtures";
import { insertProjectRow } from "../test/rows";
import { publishQueue } from "../publish/publish-job";
import { until } from "../test/wait";
import { createTestApp, createUser, type TestApp, type TestUser } from "../test/harness";
import { attachEventsServer } from "./events-server";
import { TestSocket } from "./test-socket";

let t: TestApp;
let server: http.Server;
let hub: { close(): Promise<void> };
let url: string;
let staff: TestUser;
let admin: TestUser;
const sockets: TestSocket[] = [];

async function connect(options: WebSocket.ClientOptions = {}): Promise<TestSocket> {
  const socket = await TestSocket.open(url, options);
  sockets.push(socket);
  return socket;
}

async function subscribed(projectId: number, user: TestUser = staff): Promise<TestSocket> {
  const socket = await connect();
  socket.send("subscribe-to-project", { projectId, token: user.token });
  expect(await socket.next()).toMatchObject({ event: "subscribed", data: { projectId } });
  return socket;
}

const progressOf = (projectId: number, progress: number) =>
  t.ctx.events.publishEvent({ projectId, type: "publish_progress", data: { progress } });

beforeAll(async () => {
  t = await createTestApp();
  staff = await createUser(t.ctx);
  admin = await createUser(t.ctx, { role: "admin" });
  server = http.createServer(t.app);
  hub = attachEventsServer(server, t.ctx, { heartbeatMs: 200 });
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

describe("publish events over /events", () => {
  it("delivers started, throttled rising progress, then completed, to a subscribed client", async () => {
    const id = await insertProjectRow(t.ctx);
    const size = 4 * 1024 * 1024;
    const pipe = await addSlowAttachment(t.ctx, id, "slow.jpg", size);
    const socket = await subscribed(id);
    try {
      expect((await request(server).post(`/api/projects/${id}/publish`).set(staff.auth)).status).toBe(202);
      for (let i = 0; i < 8; i++) {
        await pipe.feed(size / 10);
        await new Promise((r) => setTimeout(r, 150));
      }
      await pipe.finish();
      const frames = [];
      for (let frame = await socket.next(); ; frame = await socket.next()) {
        frames.push(frame);
        if (frame.data.type === "publish_completed" || frame.data.type === "publish_failed") break;
      }

      expect(frames.every((f) => f.event === "publish-event" && f.data.projectId === id)).toBe(true);
      expect(frames[0].data).toEqual({ projectId: id, type: "publish_started", data: { progress: 0 } });
      expect(frames.at(-1)!.data).toEqual({ projectId: id, type: "publish_completed", data: { progress: 100 } });
      const progress = frames.filter((f) => f.data.type === "publish_progress");
      const values = progress.map((f) => (f.data.data as { progress: number }).progress);
      expect(values.length).toBeGreaterThanOrEqual(2);
      expect(values.every((v, i) => v > 0 && v < 100 && (i === 0 || v > values[i - 1]))).toBe(true);
      // At most four a second: consecutive frames at least ~250 ms apart (small slack for timers).
      progress.slice(1).forEach((f, i) => expect(f.at - progress[i].at).toBeGreaterThanOrEqual(200));
    } finally {
      pipe.release();
    }
  });

  it("delivers publish_failed with the reason", async () => {
    const id = await insertProjectRow(t.ctx);
    const photo = await addPhoto(t.ctx, id, "gone.jpg");
    fs.rmSync(photo.file);
    const socket = await subscribed(id);

    await request(server).post(`/api/projects/${id}/publish`).set(staff.auth);

    expect((await socket.next()).data).toMatchObject({ type: "publish_started" });
    expect((await socket.next()).data).toEqual({
      projectId: id,
      type: "publish_failed",
      data: { error: "Attachment file is missing: gone.jpg" },
    });
  });

  it("tells a client subscribing during a build where the build stands", async () => {
    const id = await insertProjectRow(t.ctx);
    const pipe = await addSlowAttachment(t.ctx, id, "slow.jpg", 1000);
    try {
      await request(server).post(`/api/projects/${id}/publish`).set(staff.auth);
      await pipe.feed(500);
      await until(
        () => publishQueue(t.ctx).progressOf(id),
        (progress) => progress === 50,
      );
      const socket = await subscribed(id);
      expect((await socket.next()).data).toEqual({ projectId: id, type: "publish_progress", data: { progress: 50 } });
    } finally {
      pipe.release();
    }
  });

  it("sends only the subscribed project's events, and none after unsubscribing", async () => {
    const id = await insertProjectRow(t.ctx);
    const other = await insertProjectRow(t.ctx);
    const socket = await subscribed(id);

    progressOf(other, 10);
    progressOf(id, 20);
    expect((await socket.next()).data).toEqual({ projectId: id, type: "publish_progress", data: { progress: 20 } });

    socket.send("unsubscribe-from-project", { projectId: id });
    expect(await socket.next()).toMatchObject({ event: "unsubscribed", data: { projectId: id } });
    progressOf(id, 30);
    expect(await socket.quiet()).toEqual([]);
  });

  it("accepts a project id sent as text, as route parameters are", async () => {
    const id = await insertProjectRow(t.ctx);
    const socket = await connect();
    socket.send("subscribe-to-project", { projectId: String(id), token: staff.token });
    expect(await socket.next()).toMatchObject({ event: "subscribed", data: { projectId: id } });
  });
});

describe("authentication on /events", () => {
  it("answers a subscription without a token with 'Authentication required'", async () => {
    const socket = await connect();
    socket.send("subscribe-to-project", { projectId: 1 });
    expect(await socket.next()).toMatchObject({ event: "error", data: { message: "Authentication required" } });
  });

  it("answers an invalid token and an unapproved user with 'Failed to authenticate', and sends them nothing", async () => {
    const id = await insertProjectRow(t.ctx);
    const pending = await createUser(t.ctx, { hasAccess: false });
    const socket = await connect();
    socket.send("subscribe-to-project", { projectId: id, token: "not.a.jwt" });
    expect((await socket.next()).data).toEqual({ message: "Failed to authenticate" });
    socket.send("subscribe-to-project", { projectId: id, token: pending.token });
    expect((await socket.next()).data).toEqual({ message: "Failed to authenticate" });

    progressOf(id, 5);
    expect(await socket.quiet()).toEqual([]);
  });

  it("stops a socket's events as soon as its user's access is revoked", async () => {
    const user = await createUser(t.ctx);
    const id = await insertProjectRow(t.ctx);
    const socket = await subscribed(id, user);

    await t.ctx.db("users").where({ uid: user.uid }).update({ has_access: false });
    t.ctx.events.resourceChanged({ resource: "users", type: "updated", ids: [user.uid] });

    expect(await socket.next()).toMatchObject({ event: "error", data: { message: "Failed to authenticate" } });
    progressOf(id, 40);
    expect(await socket.quiet()).toEqual([]);
  });

  it("stops a socket's events once its user is signed out everywhere (a password reset)", async () => {
    const user = await createUser(t.ctx);
    const id = await insertProjectRow(t.ctx);
    const socket = await subscribed(id, user);

    await t.ctx.db("users").where({ uid: user.uid }).increment("session_generation", 1);

    // Noticed at the next heartbeat (200 ms here), without any event about the user.
    expect(await socket.next()).toMatchObject({ event: "error", data: { message: "Failed to authenticate" } });
    progressOf(id, 40);
    expect(await socket.quiet()).toEqual([]);
  });

  it("stops a socket's events once the token it subscribed with has expired", async () => {
    const shortLived = await createTokenService(t.ctx.db, 2);
    const token = await shortLived.signAccessToken(staff.uid);
    const id = await insertProjectRow(t.ctx);
    const socket = await connect();
    socket.send("subscribe-to-project", { projectId: id, token });
    expect((await socket.next()).event).toBe("subscribed");

    const expiresAt = decodeJwt(token).exp! * 1000;
    await new Promise((r) => setTimeout(r, Math.max(0, expiresAt - Date.now()) + 50));
    progressOf(id, 60);

    expect(await socket.next()).toMatchObject({ event: "error", data: { message: "Failed to authenticate" } });
    expect(await socket.quiet()).toEqual([]);
  });
});

describe("malformed frames", () => {
  it("answers each with an error frame and keeps the socket usable", async () => {
    const id = await insertProjectRow(t.ctx);
    const socket = await connect();
    const cases: Array<[string | Buffer, string]> = [
      ["not json", "Malformed frame: not JSON"],
      ["[1,2]", "Malformed frame: expected {event, data}"],
      [JSON.stringify({ event: "launch-missiles", data: {} }), "Unknown event: launch-missiles"],
      [
        JSON.stringify({ event: "subscribe-to-project", data: { projectId: "abc", token: staff.token } }),
        "Invalid projectId",
      ],
      [
        JSON.stringify({ event: "subscribe-to-project", data: { projectId: -1, token: staff.token } }),
        "Invalid projectId",
      ],
      [
        JSON.stringify({ event: "subscribe-to-project", data: { projectId: 1.5, token: staff.token } }),
        "Invalid projectId",
      ],
      [
        JSON.stringify({ event: "subscribe-to-project", data: { projectId: 999999, token: staff.token } }),
        "Project not found",
      ],
      [
        JSON.stringify({ event: "subscribe-to-resources", data: { resources: ["secrets"], token: staff.token } }),
        "Unknown resource",
      ],
      [Buffer.from([1, 2, 3]), "Malformed frame: expected JSON text"],
    ];
    for (const [frame, message] of cases) {
      socket.ws.send(frame);
      expect(await socket.next(), String(frame)).toMatchObject({ event: "error", data: { message } });
    }
    socket.send("subscribe-to-project", { projectId: id, token: staff.token });
    expect(await socket.next()).toMatchObject({ event: "subscribed", data: { projectId: id } });
  });

  it("closes a socket that sends a frame over 4 kB", async () => {
    const socket = await connect();
    socket.send("subscribe-to-project", { projectId: 1, token: "x".repeat(5_000) });
    expect((await socket.closed).code).toBe(1009);
  });
});

describe("resource events", () => {
  it("relays changes of the subscribed resources only", async () => {
    const socket = await connect();
    socket.send("subscribe-to-resources", { resources: ["clients", "projects"], token: staff.token });
    expect(await socket.next()).toMatchObject({ event: "subscribed", data: { resources: ["clients", "projects"] } });

    t.ctx.events.resourceChanged({ resource: "contacts", type: "created", ids: [1] });
    t.ctx.events.resourceChanged({ resource: "clients", type: "created", ids: [7] });
    expect(await socket.next()).toMatchObject({
      event: "resource-changed",
      data: { resource: "clients", type: "created", ids: [7] },
    });

    socket.send("unsubscribe-from-resources", { resources: ["clients"] });
    expect((await socket.next()).event).toBe("unsubscribed");
    t.ctx.events.resourceChanged({ resource: "clients", type: "deleted", ids: [7] });
    t.ctx.events.resourceChanged({ resource: "projects", type: "updated", ids: [3] });
    expect(await socket.next()).toMatchObject({ data: { resource: "projects", type: "updated", ids: [3] } });
  });

  it("lets only admins follow users", async () => {
    const socket = await connect();
    socket.send("subscribe-to-resources", { resources: ["users"], token: staff.token });
    expect(await socket.next()).toMatchObject({ event: "error", data: { message: "Admin access required" } });
    socket.send("subscribe-to-resources", { resources: ["users"], token: admin.token });
    expect(await socket.next()).toMatchObject({ event: "subscribed", data: { resources: ["users"] } });
    t.ctx.events.resourceChanged({ resource: "users", type: "updated", ids: [staff.uid] });
    expect(await socket.next()).toMatchObject({
      event: "resource-changed",
      data: { resource: "users", ids: [staff.uid] },
    });
  });
});

/** Sends a bare upgrade request; with `reset`, destroys the socket at once with an RST. */
function rawUpgrade(target: string, opts: { reset?: boolean } = {}): Promise<string> {
  const { port } = server.address() as AddressInfo;
  return new Promise((resolve) => {
    const socket = net.connect(port, "127.0.0.1", () => {
      socket.write(
        `GET ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n` +
          "Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n",
      );
      if (opts.reset) {
        socket.resetAndDestroy();
        resolve("");
      }
    });
    let reply = "";
    socket.on("data", (d) => (reply += d));
    socket.on("error", () => resolve(reply));
    socket.on("close", () => resolve(reply));
  });
}

describe("the connection itself", () => {
  it("drops a client that does not answer pings and keeps one that does", async () => {
    const silent = await connect({ autoPong: false });
    const healthy = await connect();
    const { code } = await silent.closed;
    expect(code).toBe(1006);
    expect(healthy.ws.readyState).toBe(WebSocket.OPEN);
  });

  it("refuses upgrades on other paths", async () => {
    const refused = new WebSocket(url.replace("/events", "/elsewhere"));
    const status = await new Promise<number>((resolve) => {
      refused.on("unexpected-response", (_req, res) => resolve(res.statusCode ?? 0));
      refused.on("error", () => resolve(-1));
    });
    expect(status).toBe(404);
  });

  it("survives an upgrade whose request target is not a valid URL", async () => {
    const reply = await rawUpgrade("http://[");
    expect(reply).toMatch(/^HTTP\/1\.1 404/);
    expect((await request(t.app).get("/api/clients")).status).toBe(401);
    expect(server.listening).toBe(true);
  });

  it("survives clients that reset the connection right after asking to upgrade", async () => {
    for (let i = 0; i < 50; i++) await rawUpgrade(i % 2 ? "/elsewhere" : "/events", { reset: true });
    const healthy = await connect();
    expect(healthy.ws.readyState).toBe(WebSocket.OPEN);
  });

  it("terminates every client when closed", async () => {
    const own = http.createServer(t.app);
    const ownHub = attachEventsServer(own, t.ctx);
    await new Promise<void>((resolve) => own.listen(0, "127.0.0.1", resolve));
    const socket = await TestSocket.open(`ws://127.0.0.1:${(own.address() as AddressInfo).port}/events`);

    await ownHub.close();

    expect((await socket.closed).code).toBe(1006);
    await new Promise((resolve) => own.close(resolve));
  });
});
