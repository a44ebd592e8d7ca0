import request from "supertest";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { makeImage } from "../attachments/test-fixtures";
import { createTestApp, createUser, type TestApp, type TestUser } from "../test/harness";
import { insertProjectRow } from "../test/rows";
import type { ResourceChange } from "./bus";

let t: TestApp;
let user: TestUser;
let changes: ResourceChange[];
let stop: () => void;

beforeAll(async () => {
  t = await createTestApp();
  user = await createUser(t.ctx);
  stop = t.ctx.events.onResourceChanged((change) => changes.push(change));
});
afterAll(async () => {
  stop();
  await t.close();
});
beforeEach(() => {
  changes = [];
});

const api = () => request(t.app);
const of = (resource: string) => changes.filter((c) => c.resource === resource);

async function newClient(name: string): Promise<number> {
  const res = await api().post("/api/clients").set(user.auth).send({ name });
  expect(res.status).toBe(201);
  return res.body.id;
}

describe("derived changes are announced with the change that causes them", () => {
  it("a contact added, moved or removed announces its clients, whose contactCount changed", async () => {
    const acme = await newClient("Acme");
    const globex = await newClient("Globex");
    changes = [];

    const created = await api().post("/api/contacts").set(user.auth).send({ clientId: acme, name: "Ann" });
    expect(created.status).toBe(201);
    expect(of("clients")).toEqual([{ resource: "clients", type: "updated", ids: [acme] }]);

    changes = [];
    await api().put(`/api/contacts/${created.body.id}`).set(user.auth).send({ clientId: globex }).expect(200);
    expect(of("clients")).toEqual([{ resource: "clients", type: "updated", ids: [acme, globex] }]);

    changes = [];
    await api().put(`/api/contacts/${created.body.id}`).set(user.auth).send({ name: "Ann B" }).expect(200);
    expect(of("clients")).toEqual([]);

    await api().delete(`/api/contacts/${created.body.id}`).set(user.auth).expect(204);
    expect(of("clients")).toEqual([{ resource: "clients", type: "updated", ids: [globex] }]);
  });

  it("a refused contact announces nothing", async () => {
    await api().post("/api/contacts").set(user.auth).send({ clientId: 999_999, name: "Nobody" });
    await api().delete("/api/contacts/999999").set(user.auth).expect(404);
    expect(changes).toEqual([]);
  });

  it("an upload and a deletion announce the dashboard's totals", async () => {
    const projectId = await insertProjectRow(t.ctx);
    changes = [];
    const upload = await api()
      .post(`/api/attachments/projects/${projectId}/upload`)
      .set(user.auth)
      .attach("file", await makeImage("png"), "photo.png");
    expect(upload.status).toBe(201);
    expect(of("dashboard")).toEqual([{ resource: "dashboard", type: "updated", ids: ["stats"] }]);

    changes = [];
    await api().patch(`/api/attachments/${upload.body.id}`).set(user.auth).send({ originalName: "renamed.png" });
    expect(of("dashboard")).toEqual([]);

    await api().delete(`/api/attachments/${upload.body.id}`).set(user.auth).expect(204);
    expect(of("dashboard")).toEqual([{ resource: "dashboard", type: "updated", ids: ["stats"] }]);
  });
});
