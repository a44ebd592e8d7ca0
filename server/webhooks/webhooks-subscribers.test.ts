import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, createUser, type TestApp, type TestUser } from "../test/harness";

let t: TestApp;
let admin: TestUser;
/** Statements that read or wrote webhook endpoints, since the last `endpointReads()`. */
let seen: string[] = [];

beforeAll(async () => {
  t = await createTestApp();
  admin = await createUser(t.ctx, { role: "admin" });
  t.ctx.db.on("query", (query: { sql: string }) => {
    if (query.sql.includes("webhook_endpoints")) seen.push(query.sql);
  });
});
afterAll(() => t?.close());

const api = () => request(t.app);
const endpointReads = () => {
  const reads = seen.filter((sql) => /^\s*select/i.test(sql));
  seen = [];
  return reads.length;
};
const newClient = async (name: string) =>
  (await api().post("/api/clients").set(admin.auth).send({ name }).expect(201)).body.id as number;
const eventsOf = async (type: string) =>
  Number((await t.ctx.db("webhook_events").where({ type }).count({ n: "*" }).first())?.n);

describe("which events have subscribers, kept by the process", () => {
  it("reads no endpoint for an action nobody listens to, and an endpoint made, changed or deleted applies to the next action", async () => {
    await newClient("First");
    endpointReads();
    await newClient("Second");
    expect(endpointReads()).toBe(0);

    const hook = await api()
      .post("/api/webhooks")
      .set(admin.auth)
      .send({ url: "https://hooks.example.com/in", events: ["client.created"] })
      .expect(201);
    await newClient("Third");
    expect(await eventsOf("client.created")).toBe(1);

    // Turned off, then on again: each change is heard.
    await api().patch(`/api/webhooks/${hook.body.id}`).set(admin.auth).send({ active: false }).expect(200);
    await newClient("Fourth");
    await newClient("Fifth");
    expect(await eventsOf("client.created")).toBe(1);
    await api().patch(`/api/webhooks/${hook.body.id}`).set(admin.auth).send({ active: true }).expect(200);
    await newClient("Sixth");
    expect(await eventsOf("client.created")).toBe(2);

    await api().delete(`/api/webhooks/${hook.body.id}`).set(admin.auth).expect(204);
    await newClient("Seventh");
    endpointReads();
    await newClient("Eighth");
    expect(endpointReads()).toBe(0);
    expect(await eventsOf("client.created")).toBe(2);
  });
});
