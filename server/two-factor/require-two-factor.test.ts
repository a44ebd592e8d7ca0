import http from "node:http";
import type { AddressInfo } from "node:net";
import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { attachEventsServer } from "../events/events-server";
import { TestSocket } from "../events/test-socket";
import { bearer, RELAXED_LIMITS, type SessionBody } from "../auth/auth-test-helpers";
import { operations } from "../openapi/catalogue";
import { createTestApp, type TestApp } from "../test/harness";
import { TWO_FACTOR_REQUIRED } from "./require-two-factor";
import { approvedAccount, enrol } from "./two-factor-test-helpers";

let t: TestApp;
let admin: SessionBody;
let staff: SessionBody;
let server: http.Server;
let hub: { close(): Promise<void> };

beforeAll(async () => {
  t = await createTestApp(RELAXED_LIMITS);
  admin = await approvedAccount(t.app, "admin@studio.test", "adminpass1");
  staff = await approvedAccount(t.app, "staff@studio.test", "staffpass1", admin);
  // The admin turns it on for themself first, or the setting would shut them out too.
  await enrol(t.app, admin.accessToken);
  const on = await request(t.app)
    .patch("/api/studio/settings")
    .set(bearer(admin.accessToken))
    .send({ requireTwoFactor: true });
  expect([on.status, on.body.requireTwoFactor]).toEqual([200, true]);
});
afterAll(async () => {
  if (hub) await hub.close();
  if (server) await new Promise((resolve) => server.close(resolve));
  await t.close();
});

/** What the signed-in may still call before enrolling. */
const ALLOWED = /^\/api\/users\/me(\/(access|request-access|two-factor|sessions)(\/.*)?)?$/;
/** Routes behind the sign-in (a signed link's file routes answer before it, to their link or bearer). */
const BEARER = new Set(["staff", "admin", "signIn", "signedIn"]);

describe("the Studio's 'Require two-factor sign-in'", () => {
  it("refuses every other API route to someone without it", async () => {
    const gated = operations.filter(
      (op) =>
        BEARER.has(op.access) && !(ALLOWED.test(op.path) && !(op.path === "/api/users/me" && op.method !== "get")),
    );
    expect(gated.length).toBeGreaterThan(60);
    for (const op of gated) {
      const path = op.path.replace(/:(\w+)/g, "1");
      const res = await request(t.app)[op.method](path).set(bearer(staff.accessToken));
      expect([`${op.method} ${op.path}`, res.status, res.body.errors]).toEqual([
        `${op.method} ${op.path}`,
        403,
        { twoFactor: "required" },
      ]);
    }
    const refused = await request(t.app).get("/api/clients").set(bearer(staff.accessToken));
    expect(refused.body.message).toBe(TWO_FACTOR_REQUIRED);
    expect((await request(t.app).get("/api/users").set(bearer(admin.accessToken))).status).toBe(200);
  });

  it("refuses the attachment files and the live socket to their sign-in too", async () => {
    const file = await request(t.app).get("/api/attachments/1/download").set(bearer(staff.accessToken));
    expect([file.status, file.body.errors]).toEqual([403, { twoFactor: "required" }]);
    server = http.createServer(t.app);
    hub = attachEventsServer(server, t.ctx);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const url = `ws://127.0.0.1:${(server.address() as AddressInfo).port}/events`;
    const socket = await TestSocket.open(url);
    try {
      socket.send("subscribe-to-resources", { resources: ["clients"], token: staff.accessToken });
      expect(await socket.next()).toMatchObject({ event: "error", data: { message: TWO_FACTOR_REQUIRED } });
      socket.send("subscribe-to-resources", { resources: ["clients"], token: admin.accessToken });
      expect(await socket.next()).toMatchObject({ event: "subscribed" });
    } finally {
      socket.ws.close();
    }
  });

  it("leaves the enrolment open, says it is required, and lets the user in once enrolled", async () => {
    const person = await approvedAccount(t.app, "newcomer@studio.test", "newcomer1", admin);
    expect((await request(t.app).get("/api/users/me").set(bearer(person.accessToken))).status).toBe(200);
    const status = await request(t.app).get("/api/users/me/two-factor").set(bearer(person.accessToken));
    expect(status.body).toMatchObject({ enabled: false, required: true });
    expect((await request(t.app).get("/api/users/me/sessions").set(bearer(person.accessToken))).status).toBe(200);
    expect((await request(t.app).get("/api/clients").set(bearer(person.accessToken))).status).toBe(403);
    await enrol(t.app, person.accessToken);
    expect((await request(t.app).get("/api/clients").set(bearer(person.accessToken))).status).toBe(200);
  });

  it("lets API tokens through (only someone past the gate can make one)", async () => {
    const holder = await approvedAccount(t.app, "scripter@studio.test", "scripter1", admin);
    await enrol(t.app, holder.accessToken);
    const made = await request(t.app)
      .post("/api/users/me/tokens")
      .set(bearer(holder.accessToken))
      .send({ name: "watcher", scope: "read", expiresAt: null });
    expect(made.status).toBe(201);
    expect((await request(t.app).get("/api/clients").set(bearer(made.body.token))).status).toBe(200);
  });
});
