import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, createUser, type TestApp, type TestUser } from "../test/harness";
import type { ResourceChange } from "../events/bus";
import { insertClientRow, insertContactRow } from "../test/rows";

let t: TestApp;
let user: TestUser;
let clientId: number;

beforeAll(async () => {
  t = await createTestApp();
  user = await createUser(t.ctx);
  clientId = await insertClientRow(t.ctx, "Northfield Photography");
});
afterAll(() => t.close());

const api = () => request(t.app);
const contactCount = async () => Number((await t.ctx.db("contacts").count({ n: "*" }).first())?.n);

describe("creating a contact", () => {
  it("answers 201 with the contact, trimmed, and stores it", async () => {
    const seen: ResourceChange[] = [];
    const stop = t.ctx.events.onResourceChanged((c) => seen.push(c));
    const res = await api()
      .post("/api/contacts")
      .set(user.auth)
      .send({ name: " Maya Lind ", email: " maya@northfield.test ", phoneNumber: " +46 70 123 45 67 ", clientId });
    stop();
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.any(Number),
      clientId,
      name: "Maya Lind",
      email: "maya@northfield.test",
      phoneNumber: "+46 70 123 45 67",
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
      version: 1,
      updatedBy: { uid: user.uid, name: user.email },
    });
    const row = await t.ctx.db("contacts").where({ id: res.body.id }).first();
    expect(row).toMatchObject({ client_id: clientId, name: "Maya Lind", email: "maya@northfield.test" });
    expect(seen).toEqual([
      { resource: "contacts", type: "created", ids: [res.body.id] },
      { resource: "clients", type: "updated", ids: [clientId] },
    ]);
  });

  it("stores blank or absent e-mail and phone as null", async () => {
    const res = await api().post("/api/contacts").set(user.auth).send({ name: "No Details", email: "  ", clientId });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ email: null, phoneNumber: null });
  });

  it("accepts the client id as a digit string, as select inputs hold it", async () => {
    const res = await api()
      .post("/api/contacts")
      .set(user.auth)
      .send({ name: "String Id", clientId: String(clientId) });
    expect(res.status).toBe(201);
    expect(res.body.clientId).toBe(clientId);
  });

  it.each([
    [{ email: "a@b.test" }, "name", "Name is required"],
    [{ name: "  " }, "name", "Name is required"],
    [{ name: 123 }, "name", "Name must be text"],
    [{ name: "Ann", email: "ann.example.test" }, "email", "Invalid email format"],
    [{ name: "Ann", email: 42 }, "email", "Email must be text"],
    [{ name: "Ann", phoneNumber: 42 }, "phoneNumber", "Phone number must be text"],
  ])("refuses %j with 400 naming the field", async (body, field, message) => {
    const before = await contactCount();
    const res = await api()
      .post("/api/contacts")
      .set(user.auth)
      .send({ clientId, ...body });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(message);
    expect(res.body.errors[field]).toBe(message);
    expect(await contactCount()).toBe(before);
  });

  it.each([
    [{ name: "Ann" }, "Client is required"],
    [{ name: "Ann", clientId: null }, "Client is required"],
    [{ name: "Ann", clientId: "abc" }, "Client must be a positive integer id"],
    [{ name: "Ann", clientId: 0 }, "Client must be a positive integer id"],
    [{ name: "Ann", clientId: 1.5 }, "Client must be a positive integer id"],
    [{ name: "Ann", clientId: 987654 }, "Client not found"],
  ])("refuses %j with 400 on clientId", async (body, message) => {
    const before = await contactCount();
    const res = await api().post("/api/contacts").set(user.auth).send(body);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ statusCode: 400, message, errors: { clientId: message } });
    expect(await contactCount()).toBe(before);
  });
});

describe("listing contacts", () => {
  let otherClient: number;
  let ids: number[];

  beforeAll(async () => {
    otherClient = await insertClientRow(t.ctx, "Other client");
    ids = [
      await insertContactRow(t.ctx, otherClient, "Zoe Archer"),
      await insertContactRow(t.ctx, otherClient, "Adam Berg"),
      await insertContactRow(t.ctx, otherClient, "Mira Cole"),
    ];
  });

  it("filters by clientId and sets X-Total-Count", async () => {
    const res = await api().get(`/api/contacts?clientId=${otherClient}`).set(user.auth);
    expect(res.status).toBe(200);
    expect(res.headers["x-total-count"]).toBe("3");
    expect(res.body.map((c: { id: number }) => c.id)).toEqual(ids);
  });

  it("sorts by name and pages", async () => {
    const res = await api()
      .get(`/api/contacts?clientId=${otherClient}&_sort=name&_order=desc&_start=0&_end=2`)
      .set(user.auth);
    expect(res.headers["x-total-count"]).toBe("3");
    expect(res.body.map((c: { name: string }) => c.name)).toEqual(["Zoe Archer", "Mira Cole"]);
  });

  it("searches names with q", async () => {
    const res = await api().get("/api/contacts?q=berg").set(user.auth);
    expect(res.body.map((c: { id: number }) => c.id)).toEqual([ids[1]]);
  });

  it.each(["_sort=phoneNumber", "clientId=abc", "nickname=x"])("refuses %s with 400", async (query) => {
    const res = await api().get(`/api/contacts?${query}`).set(user.auth);
    expect(res.status).toBe(400);
  });
});

describe("one contact", () => {
  it("reads, updates with PUT and PATCH, and deletes", async () => {
    const id = await insertContactRow(t.ctx, clientId, "Life Cycle");
    const got = await api().get(`/api/contacts/${id}`).set(user.auth);
    expect(got.body).toMatchObject({ id, clientId, name: "Life Cycle", email: null, phoneNumber: null });

    const put = await api().put(`/api/contacts/${id}`).set(user.auth).send({ email: "life@cycle.test" });
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({ name: "Life Cycle", email: "life@cycle.test" });

    const patch = await api().patch(`/api/contacts/${id}`).set(user.auth).send({ email: "", phoneNumber: "123" });
    expect(patch.body).toMatchObject({ email: null, phoneNumber: "123" });
    expect(await t.ctx.db("contacts").where({ id }).first()).toMatchObject({ email: null, phone_number: "123" });

    const del = await api().delete(`/api/contacts/${id}`).set(user.auth);
    expect(del.status).toBe(204);
    expect(await t.ctx.db("contacts").where({ id }).first()).toBeUndefined();
  });

  it("moves a contact to another existing client only", async () => {
    const id = await insertContactRow(t.ctx, clientId, "Mover");
    const target = await insertClientRow(t.ctx, "Target");
    const moved = await api().patch(`/api/contacts/${id}`).set(user.auth).send({ clientId: target });
    expect(moved.body.clientId).toBe(target);
    const refused = await api().patch(`/api/contacts/${id}`).set(user.auth).send({ clientId: 987654, name: "Renamed" });
    expect(refused.status).toBe(400);
    expect(refused.body.errors).toEqual({ clientId: "Client not found" });
    expect(await t.ctx.db("contacts").where({ id }).first()).toMatchObject({ client_id: target, name: "Mover" });
  });

  it("refuses an update with an e-mail without @ and keeps the row", async () => {
    const id = await insertContactRow(t.ctx, clientId, "Keeps Mail");
    const res = await api().put(`/api/contacts/${id}`).set(user.auth).send({ email: "nope" });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual({ email: "Invalid email format" });
    expect((await t.ctx.db("contacts").where({ id }).first()).email).toBeNull();
  });

  it("answers 404 'Contact not found' on every route for a missing contact", async () => {
    for (const call of [
      api().get("/api/contacts/987654"),
      api().put("/api/contacts/987654").send({ name: "x" }),
      api().patch("/api/contacts/987654").send({ name: "x" }),
      api().delete("/api/contacts/987654"),
    ]) {
      const res = await call.set(user.auth);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ statusCode: 404, message: "Contact not found" });
    }
  });

  it.each(["0", "-1", "1.5", "abc", "99999999999999999999"])("answers 400 for the id %s", async (id) => {
    for (const call of [
      api().get(`/api/contacts/${id}`),
      api().patch(`/api/contacts/${id}`).send({}),
      api().delete(`/api/contacts/${id}`),
    ]) {
      const res = await call.set(user.auth);
      expect(res.status).toBe(400);
    }
  });
});
