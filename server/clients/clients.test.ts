import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, createUser, type TestApp, type TestUser } from "../test/harness";
import type { ResourceChange } from "../events/bus";
import { insertAttachmentRow, insertClientRow, insertContactRow, insertProjectRow } from "../test/rows";
import { expectMatchesContract } from "../openapi/contract";

let t: TestApp;
let user: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  user = await createUser(t.ctx);
});
afterAll(() => t.close());

const api = () => request(t.app);
const BAD_IDS = ["0", "-1", "1.5", "abc", "99999999999999999999"];

function recordEvents() {
  const seen: ResourceChange[] = [];
  const stop = t.ctx.events.onResourceChanged((c) => c.resource !== "dashboard" && seen.push(c));
  return { seen, stop };
}

describe("creating a client", () => {
  it("answers 201 with the client, name trimmed and counts at zero, and stores the row", async () => {
    const events = recordEvents();
    const res = await api().post("/api/clients").set(user.auth).send({ name: "  Harbour Lights Weddings  " });
    events.stop();
    expect(res.status).toBe(201);
    expectMatchesContract(res, "post", "/api/clients");
    expect(res.body).toEqual({
      id: expect.any(Number),
      name: "Harbour Lights Weddings",
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      updatedAt: res.body.createdAt,
      projectCount: 0,
      contactCount: 0,
      version: 1,
      updatedBy: { uid: user.uid, name: user.email },
    });
    expect(res.headers.etag).toBe('"1"');
    const row = await t.ctx.db("clients").where({ id: res.body.id }).first();
    expect(row.name).toBe("Harbour Lights Weddings");
    expect(events.seen).toEqual([{ resource: "clients", type: "created", ids: [res.body.id] }]);
  });

  it.each([
    [{}, "Name is required"],
    [{ name: "   " }, "Name is required"],
    [{ name: null }, "Name is required"],
    [{ name: 123 }, "Name must be text"],
    [{ name: "x".repeat(201) }, "Name must be at most 200 characters"],
  ])("refuses %j with 400 and stores nothing", async (body, message) => {
    const before = await t.ctx.db("clients").count({ n: "*" }).first();
    const res = await api().post("/api/clients").set(user.auth).send(body);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ statusCode: 400, message, errors: { name: message } });
    expect(await t.ctx.db("clients").count({ n: "*" }).first()).toEqual(before);
  });

  it("refuses a body that is not a JSON object", async () => {
    const res = await api().post("/api/clients").set(user.auth).send(["Acme"]);
    expect(res.status).toBe(400);
    expect(res.body.message).toBe("Request body must be a JSON object");
  });
});

describe("listing clients", () => {
  let ids: Record<string, number>;

  beforeAll(async () => {
    ids = {
      alpha: await insertClientRow(t.ctx, "List Alpha Studio", "2026-01-01T10:00:00.000Z"),
      bravo: await insertClientRow(t.ctx, "List Bravo Events", "2026-01-03T10:00:00.000Z"),
      charlie: await insertClientRow(t.ctx, "List Charlie Portraits", "2026-01-02T10:00:00.000Z"),
    };
    await insertContactRow(t.ctx, ids.bravo, "B1");
    await insertContactRow(t.ctx, ids.bravo, "B2");
    await insertContactRow(t.ctx, ids.charlie, "C1");
    for (let i = 0; i < 3; i++) await insertProjectRow(t.ctx, { name: `Charlie ${i}`, clientId: ids.charlie });
    await insertProjectRow(t.ctx, { name: "Alpha 1", clientId: ids.alpha });
  });

  it("answers every matching row as an array with X-Total-Count and counts per client", async () => {
    const res = await api().get("/api/clients?q=list ").set(user.auth);
    expect(res.status).toBe(200);
    expect(res.headers["x-total-count"]).toBe("3");
    expect(
      res.body.map((c: { name: string; projectCount: number; contactCount: number }) => [
        c.name,
        c.projectCount,
        c.contactCount,
      ]),
    ).toEqual([
      ["List Alpha Studio", 1, 0],
      ["List Bravo Events", 0, 2],
      ["List Charlie Portraits", 3, 1],
    ]);
  });

  it("pages with _start/_end while X-Total-Count keeps the whole total", async () => {
    const res = await api().get("/api/clients?q=list&_start=1&_end=2&_sort=name&_order=asc").set(user.auth);
    expectMatchesContract(res, "get", "/api/clients");
    expect(res.headers["x-total-count"]).toBe("3");
    expect(res.body.map((c: { id: number }) => c.id)).toEqual([ids.bravo]);
  });

  it.each([
    ["createdAt", "desc", ["bravo", "charlie", "alpha"]],
    ["name", "desc", ["charlie", "bravo", "alpha"]],
    ["projectCount", "desc", ["charlie", "alpha", "bravo"]],
    ["contactCount", "desc", ["bravo", "charlie", "alpha"]],
    ["projectCount", "asc", ["bravo", "alpha", "charlie"]],
  ])("sorts by %s %s, on a page too", async (field, order, expected) => {
    const all = await api().get(`/api/clients?q=list&_sort=${field}&_order=${order}`).set(user.auth);
    expect(all.body.map((c: { id: number }) => c.id)).toEqual(expected.map((k) => ids[k]));
    const page = await api().get(`/api/clients?q=list&_sort=${field}&_order=${order}&_start=0&_end=2`).set(user.auth);
    expect(page.body.map((c: { id: number }) => c.id)).toEqual(expected.slice(0, 2).map((k) => ids[k]));
  });

  it("searches names case-insensitively with q", async () => {
    const res = await api().get("/api/clients?q=BRAVO").set(user.auth);
    expect(res.body.map((c: { id: number }) => c.id)).toEqual([ids.bravo]);
    expect(res.headers["x-total-count"]).toBe("1");
  });

  it("filters by repeated id", async () => {
    const res = await api().get(`/api/clients?id=${ids.alpha}&id=${ids.charlie}`).set(user.auth);
    expect(res.body.map((c: { id: number }) => c.id)).toEqual([ids.alpha, ids.charlie]);
    expect(res.headers["x-total-count"]).toBe("2");
  });

  it.each(["_sort=secret", "_sort=name&_order=sideways", "email=a@b.c", "id=abc", "_start=-1&_end=5"])(
    "refuses the query %s with 400",
    async (query) => {
      const res = await api().get(`/api/clients?${query}`).set(user.auth);
      expect(res.status).toBe(400);
      expect(res.body.statusCode).toBe(400);
    },
  );
});

describe("reading one client", () => {
  it("adds its contacts and its projects in the projects list shape", async () => {
    const clientId = await insertClientRow(t.ctx, "Detail Studio");
    const contactId = await insertContactRow(t.ctx, clientId, "Dana");
    const projectId = await insertProjectRow(t.ctx, { name: "Detail shoot", clientId });
    await insertAttachmentRow(t.ctx, projectId, { size: 1500 });
    const res = await api().get(`/api/clients/${clientId}`).set(user.auth);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: clientId, name: "Detail Studio", projectCount: 1, contactCount: 1 });
    expect(res.body.contacts).toEqual([
      expect.objectContaining({ id: contactId, clientId, name: "Dana", email: null, phoneNumber: null }),
    ]);
    const listed = await api().get(`/api/projects?clientId=${clientId}`).set(user.auth);
    expect(res.body.projects).toEqual(listed.body);
    expect(res.body.projects[0]).toMatchObject({
      id: projectId,
      attachmentCount: 1,
      totalFileSize: 1500,
      client: { id: clientId, name: "Detail Studio" },
    });
  });

  it("answers 404 'Client not found' for a missing client", async () => {
    const res = await api().get("/api/clients/987654").set(user.auth);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ statusCode: 404, message: "Client not found" });
  });

  it.each(BAD_IDS)("answers 400 for the id %s on every route", async (id) => {
    for (const call of [
      api().get(`/api/clients/${id}`),
      api().put(`/api/clients/${id}`).send({ name: "x" }),
      api().patch(`/api/clients/${id}`).send({ name: "x" }),
      api().delete(`/api/clients/${id}`),
    ]) {
      const res = await call.set(user.auth);
      expect(res.status).toBe(400);
      expectMatchesContract(res, res.request.method, `/api/clients/${id}`);
      expect(res.body.message).toBe("Invalid id: must be a positive integer");
    }
  });
});

describe("updating a client", () => {
  it.each(["put", "patch"] as const)("renames with %s and moves updatedAt", async (method) => {
    const id = await insertClientRow(t.ctx, "Old name", "2026-01-01T00:00:00.000Z");
    const events = recordEvents();
    const res = await api()[method](`/api/clients/${id}`).set(user.auth).send({ name: " New name " });
    events.stop();
    expect(res.status).toBe(200);
    expectMatchesContract(res, method, `/api/clients/${id}`);
    expect(res.body).toMatchObject({ id, name: "New name", createdAt: "2026-01-01T00:00:00.000Z" });
    expect(res.body.updatedAt > res.body.createdAt).toBe(true);
    expect((await t.ctx.db("clients").where({ id }).first()).name).toBe("New name");
    expect(events.seen).toEqual([{ resource: "clients", type: "updated", ids: [id] }]);
  });

  it("ignores fields it does not own, such as the counts a form sends back", async () => {
    const id = await insertClientRow(t.ctx, "Keeps counts");
    const res = await api().patch(`/api/clients/${id}`).set(user.auth).send({ projectCount: 99, id: 5 });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id, name: "Keeps counts", projectCount: 0 });
  });

  it("refuses a blank name and keeps the row", async () => {
    const id = await insertClientRow(t.ctx, "Unchanged");
    const res = await api().put(`/api/clients/${id}`).set(user.auth).send({ name: "" });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual({ name: "Name is required" });
    expect((await t.ctx.db("clients").where({ id }).first()).name).toBe("Unchanged");
  });

  it("answers 404 for a missing client", async () => {
    const res = await api().patch("/api/clients/987654").set(user.auth).send({ name: "x" });
    expect(res.status).toBe(404);
    expect(res.body.message).toBe("Client not found");
  });
});

describe("deleting a client", () => {
  it("deletes its contacts, keeps its projects without a client, and announces all three", async () => {
    const id = await insertClientRow(t.ctx, "Leaving Studio");
    const contactIds = [await insertContactRow(t.ctx, id, "A"), await insertContactRow(t.ctx, id, "B")];
    const projectId = await insertProjectRow(t.ctx, { name: "Kept project", clientId: id });
    const events = recordEvents();
    const res = await api().delete(`/api/clients/${id}`).set(user.auth);
    events.stop();
    expect(res.status).toBe(204);
    expect(await t.ctx.db("clients").where({ id }).first()).toBeUndefined();
    expect(await t.ctx.db("contacts").whereIn("id", contactIds)).toEqual([]);
    const project = await api().get(`/api/projects/${projectId}`).set(user.auth);
    expect(project.body).toMatchObject({ id: projectId, clientId: null, client: null });
    expect(events.seen).toEqual([
      { resource: "clients", type: "deleted", ids: [id] },
      { resource: "contacts", type: "deleted", ids: contactIds },
      { resource: "projects", type: "updated", ids: [projectId] },
    ]);
    expect((await api().get(`/api/clients/${id}`).set(user.auth)).status).toBe(404);
  });

  it("answers 404 for a missing client", async () => {
    const res = await api().delete("/api/clients/987654").set(user.auth);
    expect(res.status).toBe(404);
    expect(res.body.message).toBe("Client not found");
  });
});
