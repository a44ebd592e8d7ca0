import request from "supertest";
import { Webhook as StandardWebhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, createUser, type TestApp, type TestUser } from "../test/harness";
import { until } from "../test/wait";
import { addPhoto } from "../publish/test-fixtures";
import { downloadZip, publishDelivery } from "../delivery/test-fixtures";
import { visitorOf } from "../favourites/test-fixtures";
import { recordingsSettled } from "../activity/activity.service";
import { pruneOldEvents, startWebhookWorker } from "./outbox-worker";
import { startReceiver, type Receiver } from "./test-receiver";
import { recordWebhookEvent } from "./outbox";
import { expectMatchesContract } from "../openapi/contract";

let t: TestApp;
let admin: TestUser;
let staff: TestUser;
let receiver: Receiver;
let stopWorker: () => Promise<void>;

const WAITS = [30, 30, 30, 30, 30, 30];

beforeAll(async () => {
  t = await createTestApp({ WEBHOOK_ALLOW_PRIVATE: "1", TRUST_PROXY: "1" });
  admin = await createUser(t.ctx, { role: "admin" });
  staff = await createUser(t.ctx);
  receiver = await startReceiver();
  stopWorker = startWebhookWorker(t.ctx, { pollMs: 20, retryWaitsMs: WAITS });
});
afterAll(async () => {
  await stopWorker?.();
  await receiver?.close();
  await t?.close();
});

const api = () => request(t.app);

async function createHook(body: Record<string, unknown>) {
  const res = await api().post("/api/webhooks").set(admin.auth).send(body);
  expect(res.status).toBe(201);
  return res.body as { id: number; secret: string; url: string; events: string[]; active: boolean };
}

const verified = (secret: string, r: { body: string; headers: Record<string, string> }) =>
  new StandardWebhook(secret.slice("whsec_".length)).verify(r.body, r.headers);

const attemptsOf = async (id: number) =>
  (await api().get(`/api/webhooks/${id}/attempts`).set(admin.auth).expect(200)).body as Array<{
    id: number;
    eventType: string;
    eventId: string;
    status: number | null;
    durationMs: number;
    response: string | null;
  }>;

describe("/api/webhooks", () => {
  it("creates an endpoint answering its whsec_ secret once, then lists and reads it without", async () => {
    const res = await api()
      .post("/api/webhooks")
      .set(admin.auth)
      .send({ url: receiver.url("/crud"), events: ["project.created", "project.created"], description: "n8n" });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.any(Number),
      url: receiver.url("/crud"),
      events: ["project.created"],
      description: "n8n",
      active: true,
      secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{43}=$/),
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    expect(Buffer.from(res.body.secret.slice(6), "base64").length).toBeGreaterThanOrEqual(24);
    const list = await api().get("/api/webhooks").set(admin.auth).expect(200);
    expect(Number(list.headers["x-total-count"])).toBe(list.body.length);
    const listed = list.body.find((w: { id: number }) => w.id === res.body.id);
    expect(listed).toBeDefined();
    expect(listed.secret).toBeUndefined();
    const one = await api().get(`/api/webhooks/${res.body.id}`).set(admin.auth).expect(200);
    expect(one.body.secret).toBeUndefined();
    expect(JSON.stringify(await t.ctx.db("webhook_endpoints").where({ id: res.body.id }).first())).not.toContain(
      res.body.secret.slice(6),
    );

    const patched = await api()
      .patch(`/api/webhooks/${res.body.id}`)
      .set(admin.auth)
      .send({ description: null, active: false, events: ["client.created"] });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ description: null, active: false, events: ["client.created"] });
    expect(patched.body.secret).toBeUndefined();
    const rotated = await api().patch(`/api/webhooks/${res.body.id}`).set(admin.auth).send({ rotateSecret: true });
    expect(rotated.body.secret).toMatch(/^whsec_/);
    expect(rotated.body.secret).not.toBe(res.body.secret);

    await api().delete(`/api/webhooks/${res.body.id}`).set(admin.auth).expect(204);
    expect((await api().get(`/api/webhooks/${res.body.id}`).set(admin.auth)).body).toEqual({
      statusCode: 404,
      message: "Webhook not found",
    });
  });

  it("answers as the OpenAPI document says, refusals included", async () => {
    const checked = async (method: "get" | "post" | "patch" | "delete", path: string, body?: object) => {
      const req = api()[method](path).set(admin.auth);
      const res = await (body ? req.send(body) : req);
      expectMatchesContract(res, method, path);
      return res;
    };
    const created = await checked("post", "/api/webhooks", { url: receiver.url("/doc"), events: ["client.created"] });
    const id = created.body.id as number;
    await checked("get", "/api/webhooks");
    await checked("get", `/api/webhooks/${id}`);
    await checked("patch", `/api/webhooks/${id}`, { rotateSecret: true });
    await checked("patch", `/api/webhooks/${id}`, { description: "Zapier" });
    await checked("post", `/api/webhooks/${id}/test`);
    const [attempt] = await until(
      () => attemptsOf(id),
      (l) => l.length === 1,
    );
    await checked("get", `/api/webhooks/${id}/attempts`);
    await checked("post", `/api/webhooks/${id}/attempts/${attempt.id}/retry`);
    await checked("post", "/api/webhooks", { url: "http://169.254.169.254/", events: ["client.created"] });
    await checked("delete", `/api/webhooks/${id}`);
    await checked("get", `/api/webhooks/${id}`);
  });

  it("answers bad input with 400s, other people with 403, unknown ids with 404", async () => {
    const bad = async (body: unknown, field: string) => {
      const res = await api()
        .post("/api/webhooks")
        .set(admin.auth)
        .send(body as object);
      expect(res.status).toBe(400);
      expect(res.body.errors?.[field] ?? res.body.message).toBeTruthy();
      return res.body as { message: string };
    };
    await bad({ url: "ftp://example.com/", events: ["client.created"] }, "url");
    await bad({ url: "not a url", events: ["client.created"] }, "url");
    await bad({ url: "https://example.com/", events: [] }, "events");
    await bad({ url: "https://example.com/", events: ["project.deleted"] }, "events.0");
    await bad({ url: "https://example.com/", events: ["client.created"], extra: 1 }, "body");
    expect((await bad({ url: "http://169.254.169.254/latest", events: ["client.created"] }, "url")).message).toMatch(
      /never allowed/,
    );
    await bad({ url: "http://[fd00:ec2::254]/", events: ["client.created"] }, "url");
    await bad({ url: "http://[fe80::1]/", events: ["client.created"] }, "url");
    expect((await api().post("/api/webhooks").set(admin.auth).send("[]").type("json")).status).toBe(400);
    expect((await api().get("/api/webhooks").set(staff.auth)).status).toBe(403);
    expect((await api().post("/api/webhooks").send({})).status).toBe(401);
    expect((await api().get("/api/webhooks/abc").set(admin.auth)).status).toBe(400);
    expect((await api().patch("/api/webhooks/999999").set(admin.auth).send({ active: true })).status).toBe(404);
    expect((await api().patch("/api/webhooks/999999").set(admin.auth).send({ rotateSecret: false })).status).toBe(400);
    expect((await api().post("/api/webhooks/999999/test").set(admin.auth)).status).toBe(404);
    expect((await api().get("/api/webhooks/999999/attempts").set(admin.auth)).status).toBe(404);
  });

  it("sends a signed webhook.test that standardwebhooks verifies, and lists the attempt", async () => {
    const hook = await createHook({ url: receiver.url("/test"), events: ["client.created"] });
    const sent = await api().post(`/api/webhooks/${hook.id}/test`).set(admin.auth).expect(202);
    const [got] = await until(
      () => receiver.received.filter((r) => r.path === "/test"),
      (list) => list.length === 1,
    );
    expect(got.headers["webhook-id"]).toBe(sent.body.eventId);
    expect(got.headers["webhook-signature"]).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
    expect(verified(hook.secret, got)).toEqual(got.json);
    expect(got.json).toEqual({ type: "webhook.test", timestamp: expect.any(String), data: expect.any(Object) });
    expect(() => verified(`whsec_${Buffer.alloc(32).toString("base64")}`, got)).toThrow();
    const attempts = await until(
      () => attemptsOf(hook.id),
      (list) => list.length === 1,
    );
    expect(attempts[0]).toMatchObject({ eventType: "webhook.test", status: 200, response: "thanks" });
    expect(attempts[0].durationMs).toBeGreaterThanOrEqual(0);
  });

  it("retries a receiver answering 500 with the same webhook-id until it takes it, then stops; 'Send again' sends it once more", async () => {
    const hook = await createHook({ url: receiver.url("/flaky"), events: ["client.created"] });
    receiver.answers.push(500, 500);
    await api().post(`/api/webhooks/${hook.id}/test`).set(admin.auth).expect(202);
    const flaky = () => receiver.received.filter((r) => r.path === "/flaky");
    await until(flaky, (list) => list.length === 3);
    const attempts = await until(
      () => attemptsOf(hook.id),
      (list) => list.length === 3,
    );
    expect(attempts.map((a) => a.status)).toEqual([200, 500, 500]);
    expect(attempts[1].response).toBe("no: 500");
    // Nothing more comes: the delivery has ended (its last attempt and its status are written in one
    // transaction). A worker pass that claimed a test sent after that would have claimed the ended
    // delivery too (due earlier); a second test, sent once the first was, comes in a later pass, so
    // that pass, sends and all, has finished.
    const statuses = await t.ctx.db("webhook_deliveries").where({ endpoint_id: hook.id }).pluck("status");
    expect(statuses).toEqual(["delivered"]);
    const probe = await createHook({ url: receiver.url("/probe"), events: ["client.created"] });
    for (const sent of [1, 2]) {
      await api().post(`/api/webhooks/${probe.id}/test`).set(admin.auth).expect(202);
      await until(
        () => attemptsOf(probe.id),
        (list) => list.length === sent,
      );
    }
    await api().delete(`/api/webhooks/${probe.id}`).set(admin.auth).expect(204);
    expect(flaky()).toHaveLength(3);
    expect(new Set(flaky().map((r) => r.headers["webhook-id"])).size).toBe(1);
    for (const r of flaky()) expect(verified(hook.secret, r)).toEqual(r.json);

    await api().post(`/api/webhooks/${hook.id}/attempts/${attempts[2].id}/retry`).set(admin.auth).expect(202);
    await until(flaky, (list) => list.length === 4);
    expect(flaky()[3].headers["webhook-id"]).toBe(flaky()[0].headers["webhook-id"]);
    expect((await api().post(`/api/webhooks/${hook.id}/attempts/999999/retry`).set(admin.auth)).status).toBe(404);
  });

  it("fires the events of the API's actions, each with the record as the API answers it", async () => {
    const all = [
      "client.created",
      "project.created",
      "project.published",
      "project.unpublished",
      "delivery.viewed",
      "delivery.downloaded",
      "favourites.submitted",
      "access.requested",
    ];
    const hook = await createHook({ url: receiver.url("/events"), events: all });
    const mine = (type: string) => receiver.ofType(type).filter((r) => r.path === "/events");
    const one = async (type: string) =>
      (
        await until(
          () => mine(type),
          (l) => l.length >= 1,
        )
      )[0];

    const client = await api().post("/api/clients").set(staff.auth).send({ name: "Lima family" }).expect(201);
    const clientEvent = await one("client.created");
    expect(verified(hook.secret, clientEvent)).toEqual(clientEvent.json);
    expect(clientEvent.json.data).toMatchObject({
      id: client.body.id,
      name: "Lima family",
      contacts: [],
      projects: [],
    });

    const project = await api()
      .post("/api/projects")
      .set(staff.auth)
      .send({ name: "Lima wedding", clientId: client.body.id })
      .expect(201);
    const created = await one("project.created");
    const answered = (await api().get(`/api/projects/${project.body.id}`).set(staff.auth)).body;
    expect(created.json.data).toEqual(answered);

    await addPhoto(t.ctx, project.body.id, "one.jpg");
    await api().post(`/api/projects/${project.body.id}/publish`).set(staff.auth).expect(202);
    const published = await one("project.published");
    expect(published.json.data).toMatchObject({ id: project.body.id, publishStatus: "published" });

    const delivery = await publishDelivery(t, staff, { name: "Gallery" });
    await api().get(delivery.page).set("X-Forwarded-For", "203.0.113.7").expect(200);
    await api().get(delivery.page).set("X-Forwarded-For", "203.0.113.7").expect(200);
    await api().get(delivery.page).set("X-Forwarded-For", "203.0.113.8").expect(200);
    await recordingsSettled(t.ctx);
    const views = await until(
      () => mine("delivery.viewed").filter((r) => (r.json.data.project as { id: number }).id === delivery.id),
      (l) => l.length === 2,
    );
    expect(views[0].json.data).toMatchObject({ project: { id: delivery.id, name: "Gallery" } });
    expect(new Set(views.map((v) => v.json.data.visitor)).size).toBe(2);
    expect(JSON.stringify(views)).not.toContain("203.0.113");

    await downloadZip(t, delivery);
    const downloaded = await one("delivery.downloaded");
    expect(downloaded.json.data).toMatchObject({ project: { id: delivery.id, name: "Gallery" }, size: "original" });

    const visitor = visitorOf(t, delivery.token, "198.51.100.4");
    expect((await visitor.join("Ana Lima", "ana@lima.test")).status).toBeLessThan(300);
    expect((await visitor.mark(1)).status).toBe(200);
    expect((await visitor.submit()).status).toBe(200);
    const submitted = await one("favourites.submitted");
    expect(submitted.json.data).toMatchObject({
      project: { id: delivery.id, name: "Gallery" },
      selection: { name: "Ana Lima", email: "ana@lima.test" },
    });

    await api().delete(`/api/projects/${delivery.id}/publish`).set(staff.auth).expect(200);
    const unpublished = await one("project.unpublished");
    expect(unpublished.json.data).toMatchObject({ id: delivery.id, publishStatus: "draft" });

    const newcomer = await createUser(t.ctx, { hasAccess: false });
    await api().post("/api/users/me/request-access").set(newcomer.auth).send({ message: "Hi" }).expect(201);
    const asked = await one("access.requested");
    expect(asked.json.data).toMatchObject({ user: { uid: newcomer.uid, email: newcomer.email }, message: "Hi" });

    for (const type of all) expect(mine(type).length, type).toBeGreaterThanOrEqual(1);
    // Each event once: a delivery the receiver took is not sent again. Once none of this endpoint's
    // deliveries is pending, nothing more can be sent to it.
    const deliveries = await until(
      async () =>
        (await t.ctx.db("webhook_deliveries").where({ endpoint_id: hook.id }).select("status", "attempts")) as Array<{
          status: string;
          attempts: number;
        }>,
      (rows) => rows.every((row) => row.status !== "pending"),
    );
    expect(deliveries.map((row) => [row.status, Number(row.attempts)])).toEqual(deliveries.map(() => ["delivered", 1]));
    const ids = receiver.received.filter((r) => r.path === "/events").map((r) => r.headers["webhook-id"]);
    expect(ids).toHaveLength(deliveries.length);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("writes an event once per dedupe key: the second with the same key answers nothing and writes nothing", async () => {
    const hook = await createHook({ url: receiver.url("/dedupe"), events: ["delivery.viewed"] });
    const record = () =>
      recordWebhookEvent(
        t.ctx.db,
        "delivery.viewed",
        { projectId: 1 },
        { dedupeKey: `dedupe-test:${hook.id}`, onlyEndpoint: hook.id },
      );
    expect(await record()).toMatch(/^msg_/);
    expect(await record()).toBeUndefined();
    const events = await t.ctx.db("webhook_events").where({ dedupe_key: `dedupe-test:${hook.id}` });
    expect(events).toHaveLength(1);
    expect(await t.ctx.db("webhook_deliveries").where({ event_id: events[0].id })).toHaveLength(1);
  });

  it("sends no test to an endpoint turned off, and forgets old events once every delivery of them has ended", async () => {
    const hook = await createHook({ url: receiver.url("/old"), events: ["client.created"] });
    await api().post(`/api/webhooks/${hook.id}/test`).set(admin.auth).expect(202);
    await until(
      () => attemptsOf(hook.id),
      (l) => l.length === 1,
    );
    await api().patch(`/api/webhooks/${hook.id}`).set(admin.auth).send({ active: false }).expect(200);
    const refused = await api().post(`/api/webhooks/${hook.id}/test`).set(admin.auth);
    expect(refused.status).toBe(409);
    const waiting = await t.ctx.db("webhook_deliveries").where({ status: "pending" }).count({ n: "*" });
    await pruneOldEvents(t.ctx, 0);
    expect(await attemptsOf(hook.id)).toEqual([]);
    expect(await t.ctx.db("webhook_deliveries").where({ status: "pending" }).count({ n: "*" })).toEqual(waiting);
  });
});
