import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeImage } from "../attachments/test-fixtures";
import { createTestApp, createUser, type TestApp, type TestUser } from "../test/harness";
import { expectMatchesContract } from "./contract";

let t: TestApp;
let staff: TestUser;
let admin: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  staff = await createUser(t.ctx);
  admin = await createUser(t.ctx, { role: "admin" });
});
afterAll(() => t.close());

/** Sends a request and checks its answer against the document, then returns it. */
async function call(
  method: "get" | "post" | "put" | "patch" | "delete",
  path: string,
  options: { as?: TestUser | null; body?: object; headers?: Record<string, string> } = {},
) {
  let req = request(t.app)[method](path);
  const as = options.as === undefined ? staff : options.as;
  if (as) req = req.set(as.auth);
  if (options.headers) req = req.set(options.headers);
  const res = await (options.body ? req.send(options.body) : req);
  expectMatchesContract(res, method, path);
  return res;
}

describe("answers against the OpenAPI document", () => {
  it("holds for a client, contact and project's life, their lists, and their refusals", async () => {
    const client = (await call("post", "/api/clients", { body: { name: "Harbour Lights" } })).body;
    await call("post", "/api/contacts", { body: { name: "Mara", email: "mara@example.test", clientId: client.id } });
    const project = (await call("post", "/api/projects", { body: { name: "Wedding", clientId: client.id } })).body;
    await call("get", `/api/clients/${client.id}`);
    await call("get", "/api/clients?_start=0&_end=10&_sort=name&_order=asc&q=harb");
    await call("get", "/api/contacts?clientId=" + client.id);
    await call("get", `/api/projects/${project.id}`);
    await call("get", "/api/projects?_start=0&_end=25");
    await call("patch", `/api/clients/${client.id}`, { body: { name: "Harbour Lights Studio" } });
    const stale = await call("put", `/api/projects/${project.id}`, {
      body: { name: "X" },
      headers: { "If-Match": '"99"' },
    });
    expect(stale.status).toBe(412);
    expect((await call("post", "/api/clients", { body: { name: "" } })).status).toBe(400);
    expect((await call("get", "/api/clients/abc")).status).toBe(400);
    expect((await call("get", "/api/clients/999999")).status).toBe(404);
    expect((await call("get", "/api/clients", { as: null })).status).toBe(401);
    expect((await call("get", "/api/users")).status).toBe(403);
    expect((await call("get", "/api/clients?colour=red")).status).toBe(400);
  });

  it("holds for a photo's upload and record, the project's parts, and the studio", async () => {
    const project = (await call("post", "/api/projects", { body: { name: "Portraits" } })).body;
    const upload = await request(t.app)
      .post(`/api/attachments/projects/${project.id}/upload`)
      .set(staff.auth)
      .attach("file", await makeImage("jpeg"), "IMG_0001.jpg");
    expectMatchesContract(upload, "post", `/api/attachments/projects/${project.id}/upload`);
    expect(upload.status).toBe(201);
    await call("get", `/api/attachments?projectId=${project.id}`);
    await call("get", `/api/attachments/${upload.body.id}`);
    await call("put", `/api/projects/${project.id}/cover`, { body: { attachmentId: upload.body.id } });
    await call("put", `/api/projects/${project.id}/delivery`, { body: { allowDownloads: false } });
    await call("get", `/api/projects/${project.id}/activity`);
    await call("get", `/api/projects/${project.id}/reminders`);
    await call("get", `/api/projects/${project.id}/favourites`);
    await call("get", `/api/projects/${project.id}/sending`);
    await call("get", "/api/dashboard/stats");
    await call("get", "/api/studio/settings");
    await call("get", "/api/users/me");
    await call("patch", "/api/users/me", { body: { language: "de" } });
    expect((await call("patch", "/api/users/me", { body: { language: "fr" } })).status).toBe(400);
    await call("get", "/api/users/me/access");
    await call("get", "/api/users/me/notifications");
    await call("get", "/api/users/me/notifications/selections");
    await call("get", "/api/auth/config", { as: null });
    await call("get", "/api/auth/jwks.json", { as: null });
  });

  it("holds for an admin's users and tokens, and a token's own calls", async () => {
    await call("get", "/api/users?access=approved", { as: admin });
    await call("get", `/api/users/${staff.uid}`, { as: admin });
    const created = await call("post", "/api/users/me/tokens", {
      body: { name: "Booking form", scope: "read", expiresAt: null },
    });
    expect(created.status).toBe(201);
    await call("get", "/api/users/me/tokens");
    await call("get", "/api/tokens", { as: admin });
    const token = { ...staff, auth: { Authorization: `Bearer ${created.body.token}` } };
    await call("get", "/api/clients", { as: token });
    expect((await call("post", "/api/clients", { as: token, body: { name: "Nope" } })).status).toBe(403);
    await call("delete", `/api/users/me/tokens/${created.body.id}`);
  });

  it("fails on a body that breaks the schema, a status not documented, and a header promised but absent", () => {
    const ok = { status: 200, headers: { etag: '"1"', "content-type": "application/json" }, body: { statusCode: 1 } };
    expect(() => expectMatchesContract(ok, "get", "/api/clients/1")).toThrow(/body against the document/);
    expect(() => expectMatchesContract({ ...ok, status: 418 }, "get", "/api/clients/1")).toThrow(/does not document/);
    const html = { ...ok, headers: { etag: '"1"', "content-type": "text/html" } };
    expect(() => expectMatchesContract(html, "get", "/api/clients/1")).toThrow(/text\/html, not JSON/);
    const contact = { id: 1, clientId: 1, name: "Mara", email: null, phoneNumber: null, version: 1, updatedBy: null };
    const times = { createdAt: "2026-11-29T07:00:00.000Z", updatedAt: "2026-11-29T07:00:00.000Z" };
    expect(() =>
      expectMatchesContract({ ...ok, body: { ...contact, ...times } }, "get", "/api/contacts/1"),
    ).not.toThrow();
    const vague = { ...ok, body: { ...contact, ...times, updatedAt: "yesterday" } };
    expect(() => expectMatchesContract(vague, "get", "/api/contacts/1")).toThrow(/updatedAt must match format/);
    const list = { status: 200, headers: {}, body: [] };
    expect(() => expectMatchesContract(list, "get", "/api/clients")).toThrow(/X-Total-Count/);
    expect(() => expectMatchesContract(list, "get", "/api/nowhere")).toThrow(/not in the OpenAPI document/);
  });
});
