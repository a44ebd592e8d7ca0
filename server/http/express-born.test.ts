import http, { type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import express from "express";
import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { attachEventsServer } from "../events/events-server";
import { TestSocket } from "../events/test-socket";
import { createTestApp, createUser, type TestApp } from "../test/harness";
import { expressBornServerOptions } from "./express-born";

async function listening(server: http.Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const closed = (server: http.Server) => new Promise((resolve) => server.close(resolve));

describe("requests made with Express's prototypes", () => {
  /** What a request and its response were made as, seen before Express has touched them. */
  async function arrival(options: http.ServerOptions | undefined, app: express.Express) {
    let seen: { request: boolean; response: boolean } | undefined;
    const listener = (req: IncomingMessage, res: ServerResponse) => {
      seen = {
        request: Object.getPrototypeOf(req) === app.request,
        response: Object.getPrototypeOf(res) === app.response,
      };
      app(req, res);
    };
    const server = options ? http.createServer(options, listener) : http.createServer(listener);
    try {
      const res = await request(`http://${await listening(server)}`)
        .post("/echo?x=1")
        .send({ a: 1 });
      return { seen, status: res.status, body: res.body as unknown };
    } finally {
      await closed(server);
    }
  }

  const echoApp = () => {
    const app = express();
    app.use(express.json());
    app.post("/echo", (req, res) => void res.json({ body: req.body as unknown, query: req.query, ip: req.ip }));
    return app;
  };

  it("arrive as Express would make them, so its swap of prototypes changes nothing, and work as before", async () => {
    const app = echoApp();
    const born = await arrival(expressBornServerOptions(app), app);
    expect(born.seen).toEqual({ request: true, response: true });
    const usual = await arrival(undefined, app);
    expect(usual.seen).toEqual({ request: false, response: false });
    expect(born.status).toBe(200);
    expect(born.body).toEqual(usual.body);
    expect(born.body).toEqual({ body: { a: 1 }, query: { x: "1" }, ip: "127.0.0.1" });
  });

  it("come from constructors that inherit from Node's, so V8 makes room for Node's properties in each object", () => {
    const options = expressBornServerOptions(echoApp());
    expect(Object.getPrototypeOf(options.IncomingMessage)).toBe(http.IncomingMessage);
    expect(Object.getPrototypeOf(options.ServerResponse)).toBe(http.ServerResponse);
  });
});

describe("Photodrop's server with those options", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it("answers the API, refusals and the /events WebSocket as the plain listener does", async () => {
    const server = http.createServer(t.app.serverOptions, t.app);
    const hub = attachEventsServer(server, t.ctx);
    const host = await listening(server);
    try {
      const user = await createUser(t.ctx);
      const created = await request(`http://${host}`).post("/api/clients").set(user.auth).send({ name: "Born Ltd" });
      expect(created.status).toBe(201);
      const listed = await request(`http://${host}`).get("/api/clients").set(user.auth);
      expect(listed.status).toBe(200);
      expect(listed.headers["x-total-count"]).toBe("1");
      expect((listed.body as { name: string }[]).map((c) => c.name)).toEqual(["Born Ltd"]);
      expect((await request(t.app).get("/api/clients").set(user.auth)).body).toEqual(listed.body);
      const refused = await request(`http://${host}`).get("/api/clients");
      expect(refused.status).toBe(401);
      expect(refused.headers["x-content-type-options"]).toBe("nosniff");
      const socket = await TestSocket.open(`ws://${host}/events`);
      socket.ws.close();
      await socket.closed;
    } finally {
      await hub.close();
      await closed(server);
    }
  });
});
