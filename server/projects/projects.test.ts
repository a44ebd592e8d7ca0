import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, createUser, type TestApp, type TestUser } from "../test/harness";
import { insertAttachmentRow, insertClientRow, insertProjectRow } from "../test/rows";
import { expectMatchesContract } from "../openapi/contract";

let t: TestApp;
let user: TestUser;
let clientId: number;

beforeAll(async () => {
  t = await createTestApp();
  user = await createUser(t.ctx);
  clientId = await insertClientRow(t.ctx, "Bluebird Studio");
});
afterAll(() => t.close());

const api = () => request(t.app);
const projectCount = async () => Number((await t.ctx.db("projects").count({ n: "*" }).first())?.n);
const idsOf = (body: Array<{ id: number }>) => body.map((p) => p.id);

describe("creating a project", () => {
  it("answers 201 with exactly the contract's project shape", async () => {
    const res = await api()
      .post("/api/projects")
      .set(user.auth)
      .send({ name: " Spring wedding ", description: " Two cameras ", clientId });
    expect(res.status).toBe(201);
    expectMatchesContract(res, "post", "/api/projects");
    expect(res.body).toEqual({
      id: expect.any(Number),
      name: "Spring wedding",
      description: "Two cameras",
      clientId,
      client: { id: clientId, name: "Bluebird Studio" },
      photoOrder: "captured",
      publishStatus: "draft",
      publishedAt: null,
      publishedZipPath: null,
      downloadUrl: null,
      publishError: null,
      deliveryUrl: null,
      delivery: {
        expiresAt: null,
        hasPasscode: false,
        views: 0,
        downloads: 0,
        lastDownloadAt: null,
        allowDownloads: true,
        offerWebSize: false,
        favouritesLimit: null,
        language: null,
      },
      coverAttachmentId: null,
      attachmentCount: 0,
      totalFileSize: 0,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
      version: 1,
      updatedBy: { uid: user.uid, name: user.email },
    });
    expect(await t.ctx.db("projects").where({ id: res.body.id }).first()).toMatchObject({
      name: "Spring wedding",
      client_id: clientId,
    });
  });

  it.each([{}, { clientId: null }, { clientId: "" }])("creates a project without a client from %j", async (extra) => {
    const res = await api()
      .post("/api/projects")
      .set(user.auth)
      .send({ name: "Loose", description: "   ", ...extra });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ description: null, clientId: null, client: null });
  });

  it.each([
    [{ description: "x" }, "name", "Name is required"],
    [{ name: "" }, "name", "Name is required"],
    [{ name: ["a"] }, "name", "Name must be text"],
    [{ name: "P", description: 5 }, "description", "Description must be text"],
    [{ name: "P", clientId: "abc" }, "clientId", "Client must be a positive integer id"],
    [{ name: "P", clientId: -3 }, "clientId", "Client must be a positive integer id"],
    [{ name: "P", clientId: 987654 }, "clientId", "Client not found"],
  ])("refuses %j with 400 and stores nothing", async (body, field, message) => {
    const before = await projectCount();
    const res = await api().post("/api/projects").set(user.auth).send(body);
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(message);
    expect(res.body.errors).toEqual({ [field]: message });
    expect(await projectCount()).toBe(before);
  });
});

describe("listing projects", () => {
  let a: number, b: number, c: number, d: number, other: number;

  beforeAll(async () => {
    other = await insertClientRow(t.ctx, "Aardvark Events");
    a = await insertProjectRow(t.ctx, { name: "Zlist one", clientId, createdAt: "2026-02-01T00:00:00.000Z" });
    b = await insertProjectRow(t.ctx, { name: "Zlist two", clientId: other, createdAt: "2026-02-03T00:00:00.000Z" });
    c = await insertProjectRow(t.ctx, {
      name: "Zlist three",
      createdAt: "2026-02-02T00:00:00.000Z",
      publishStatus: "published",
      publishedZipPath: "published/abc123.zip",
    });
    d = await insertProjectRow(t.ctx, { name: "Zlist four", clientId, createdAt: "2026-02-04T00:00:00.000Z" });
    for (const size of [100, 200, 300]) await insertAttachmentRow(t.ctx, b, { size });
    await insertAttachmentRow(t.ctx, c, { size: 5000 });
    await insertAttachmentRow(t.ctx, d, { size: 10 });
    await insertAttachmentRow(t.ctx, d, { size: 20 });
  });

  it("answers every matching row with counts and sizes computed from the attachments", async () => {
    const res = await api().get("/api/projects?q=zlist").set(user.auth);
    expect(res.status).toBe(200);
    expectMatchesContract(res, "get", "/api/projects");
    expect(res.headers["x-total-count"]).toBe("4");
    expect(
      res.body.map((p: { id: number; attachmentCount: number; totalFileSize: number }) => [
        p.id,
        p.attachmentCount,
        p.totalFileSize,
      ]),
    ).toEqual([
      [a, 0, 0],
      [b, 3, 600],
      [c, 1, 5000],
      [d, 2, 30],
    ]);
  });

  it("answers a published project with its download URL", async () => {
    const res = await api().get(`/api/projects?id=${c}`).set(user.auth);
    expect(res.body[0]).toMatchObject({
      publishStatus: "published",
      publishedAt: "2026-02-02T00:00:00.000Z",
      publishedZipPath: "published/abc123.zip",
      downloadUrl: "/published/abc123.zip",
      client: null,
    });
  });

  it.each([
    ["createdAt", "desc", () => [d, b, c, a]],
    ["name", "asc", () => [d, a, c, b]],
    ["attachmentCount", "desc", () => [b, d, c, a]],
    ["totalFileSize", "desc", () => [c, b, d, a]],
    ["clientName", "asc", () => [c, b, a, d]],
    // Ties (the three never published) run in the requested direction too, newest id first.
    ["publishedAt", "desc", () => [c, d, b, a]],
  ])("sorts by %s %s, on the whole list and on a page", async (field, order, expected) => {
    const all = await api().get(`/api/projects?q=zlist&_sort=${field}&_order=${order}`).set(user.auth);
    expect(idsOf(all.body)).toEqual(expected());
    const page = await api().get(`/api/projects?q=zlist&_sort=${field}&_order=${order}&_start=1&_end=3`).set(user.auth);
    expect(page.headers["x-total-count"]).toBe("4");
    expect(idsOf(page.body)).toEqual(expected().slice(1, 3));
  });

  it("filters by one or several clients, by status and by id", async () => {
    const one = await api().get(`/api/projects?q=zlist&clientId=${clientId}`).set(user.auth);
    expect(idsOf(one.body)).toEqual([a, d]);
    expect(one.headers["x-total-count"]).toBe("2");
    const both = await api()
      .get(`/api/projects?q=zlist&clientId=${clientId}&clientId=${other}&_start=0&_end=10`)
      .set(user.auth);
    expect(idsOf(both.body)).toEqual([a, b, d]);
    const published = await api().get("/api/projects?q=zlist&publishStatus=published").set(user.auth);
    expect(idsOf(published.body)).toEqual([c]);
    const byId = await api().get(`/api/projects?id=${a}&id=${c}`).set(user.auth);
    expect(idsOf(byId.body)).toEqual([a, c]);
  });

  it("answers an empty page past the end with the total still set", async () => {
    const res = await api().get("/api/projects?q=zlist&_start=50&_end=60").set(user.auth);
    expect(res.body).toEqual([]);
    expect(res.headers["x-total-count"]).toBe("4");
  });

  it.each(["_sort=description", "_sort=name&_order=up", "clientId=abc", "owner=1", "_start=abc"])(
    "refuses %s with 400",
    async (query) => {
      const res = await api().get(`/api/projects?${query}`).set(user.auth);
      expect(res.status).toBe(400);
      expect(res.body.statusCode).toBe(400);
    },
  );

  it("adds the project's attachments to GET /api/projects/{id}", async () => {
    const res = await api().get(`/api/projects/${b}`).set(user.auth);
    expect(res.status).toBe(200);
    expectMatchesContract(res, "get", `/api/projects/${b}`);
    const list = await api().get(`/api/projects?id=${b}`).set(user.auth);
    const { attachments, ...project } = res.body;
    expect(project).toEqual(list.body[0]);
    const stored = (await t.ctx.db("attachments").where({ project_id: b }).pluck("id")) as number[];
    expect(attachments.map((a: { id: number }) => a.id).sort()).toEqual(stored.sort());
    // In upload order, each as the list of the project's photos gives it, signed links and all.
    const photos = await api().get(`/api/attachments?projectId=${b}&_sort=id&_order=asc`).set(user.auth);
    expect(attachments).toEqual(photos.body);
    expect(attachments.map((a: { id: number }) => a.id)).toEqual([...stored].sort((x, y) => x - y));
  });
});

describe("the attachments a project's record holds", () => {
  it("are the first 100 in upload order (id ascending) however many it has; the count and size cover all", async () => {
    const id = await insertProjectRow(t.ctx, { name: "Marathon" });
    const rows = Array.from({ length: 130 }, (_, i) => ({
      project_id: id,
      original_name: `bib-${i}.jpg`,
      storage_key: `${id}/bib-${i}.jpg`,
      mime_type: "image/jpeg",
      size: 10,
      checksum: "0".repeat(64),
      // Later ids carry earlier dates: the record follows the ids.
      created_at: new Date(Date.UTC(2026, 0, 1, 0, 200 - i)).toISOString(),
      updated_at: new Date(Date.UTC(2026, 0, 1, 0, 200 - i)).toISOString(),
    }));
    await t.ctx.db("attachments").insert(rows);
    const ids = ((await t.ctx.db("attachments").where({ project_id: id }).orderBy("id").pluck("id")) as number[]).map(
      Number,
    );
    const res = await api().get(`/api/projects/${id}`).set(user.auth);
    expect(res.status).toBe(200);
    expect(res.body.attachments.map((a: { id: number }) => a.id)).toEqual(ids.slice(0, 100));
    expect(res.body).toMatchObject({ attachmentCount: 130, totalFileSize: 1300 });
  });
});

describe("updating a project", () => {
  it.each(["put", "patch"] as const)("changes only the fields sent with %s", async (method) => {
    const id = await insertProjectRow(t.ctx, { name: "Editable", clientId, createdAt: "2026-01-01T00:00:00.000Z" });
    const res = await api()[method](`/api/projects/${id}`).set(user.auth).send({ description: "Added later" });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id, name: "Editable", description: "Added later", clientId });
    expect(res.body.updatedAt > "2026-01-01T00:00:00.000Z").toBe(true);
  });

  it("detaches and re-attaches a client", async () => {
    const id = await insertProjectRow(t.ctx, { name: "Moves", clientId });
    const detached = await api().patch(`/api/projects/${id}`).set(user.auth).send({ clientId: null });
    expect(detached.body).toMatchObject({ clientId: null, client: null });
    const attached = await api().patch(`/api/projects/${id}`).set(user.auth).send({ clientId });
    expect(attached.body.client).toEqual({ id: clientId, name: "Bluebird Studio" });
  });

  it("refuses an unknown client and a blank name, keeping the row", async () => {
    const id = await insertProjectRow(t.ctx, { name: "Stays" });
    const unknown = await api().put(`/api/projects/${id}`).set(user.auth).send({ clientId: 987654 });
    expect(unknown.status).toBe(400);
    expect(unknown.body.errors).toEqual({ clientId: "Client not found" });
    const blank = await api().put(`/api/projects/${id}`).set(user.auth).send({ name: " " });
    expect(blank.body.errors).toEqual({ name: "Name is required" });
    expect(await t.ctx.db("projects").where({ id }).first()).toMatchObject({ name: "Stays", client_id: null });
  });

  it.each(["published", "publishing"])(
    "answers 409 'Project is published' to a %s project and keeps it",
    async (status) => {
      const id = await insertProjectRow(t.ctx, {
        name: "Frozen",
        publishStatus: status,
        publishedZipPath: "published/f.zip",
      });
      for (const method of ["put", "patch"] as const) {
        const res = await api()[method](`/api/projects/${id}`).set(user.auth).send({ name: "Thawed" });
        expect(res.status).toBe(409);
        expect(res.body).toEqual({ statusCode: 409, message: "Project is published" });
      }
      expect((await t.ctx.db("projects").where({ id }).first()).name).toBe("Frozen");
    },
  );

  it("lets a project whose publishing failed be edited", async () => {
    const id = await insertProjectRow(t.ctx, { name: "Failed once", publishStatus: "failed" });
    const res = await api().patch(`/api/projects/${id}`).set(user.auth).send({ name: "Fixed" });
    expect(res.status).toBe(200);
    expect(res.body.name).toBe("Fixed");
  });

  it("answers 404 'Project not found' and 400 for bad ids", async () => {
    for (const call of [
      api().get("/api/projects/987654"),
      api().patch("/api/projects/987654").send({ name: "x" }),
      api().delete("/api/projects/987654"),
    ]) {
      const res = await call.set(user.auth);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ statusCode: 404, message: "Project not found" });
    }
    for (const id of ["0", "-1", "1.5", "abc", "99999999999999999999"]) {
      for (const call of [
        api().get(`/api/projects/${id}`),
        api().put(`/api/projects/${id}`).send({ name: "x" }),
        api().delete(`/api/projects/${id}`),
      ]) {
        expect((await call.set(user.auth)).status).toBe(400);
      }
    }
  });
});

describe("announcing client counts", () => {
  it("tells listeners a client changed when one of its projects is added, moved or deleted", async () => {
    const other = await insertClientRow(t.ctx, "Harbour Lights");
    const seen: Array<{ resource: string; type: string; ids: Array<number | string> }> = [];
    const stop = t.ctx.events.onResourceChanged((c) => seen.push(c));
    const clientEvents = () => seen.filter((c) => c.resource === "clients").map((c) => [...c.ids].sort());

    const created = await api().post("/api/projects").set(user.auth).send({ name: "Moving", clientId });
    expect(clientEvents()).toEqual([[clientId]]);
    await api().patch(`/api/projects/${created.body.id}`).set(user.auth).send({ name: "Renamed only" });
    expect(clientEvents()).toHaveLength(1);
    await api().patch(`/api/projects/${created.body.id}`).set(user.auth).send({ clientId: other });
    expect(clientEvents()[1]).toEqual([clientId, other].sort());
    await api().delete(`/api/projects/${created.body.id}`).set(user.auth);
    stop();
    expect(clientEvents()[2]).toEqual([other]);
  });
});
