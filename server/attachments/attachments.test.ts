import request from "supertest";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { ResourceChange } from "../events/bus";
import { createTestApp, createUser, type TestApp, type TestUser } from "../test/harness";
import { makeImage, setPublishStatus, thumbnailKey } from "./test-fixtures";
import { insertProjectRow } from "../test/rows";
import { isStored } from "../test/stored-files";

let t: TestApp;
let user: TestUser;
let projectId: number;
let changes: ResourceChange[];

beforeAll(async () => {
  t = await createTestApp();
  user = await createUser(t.ctx);
  t.ctx.events.onResourceChanged((c) => c.resource !== "dashboard" && changes.push(c));
});
afterAll(() => t.close());
beforeEach(async () => {
  projectId = await insertProjectRow(t.ctx);
  changes = [];
});

async function uploadNamed(id: number, ...names: string[]) {
  const req = request(t.app).post(`/api/attachments/projects/${id}/upload-multiple`).set(user.auth);
  for (const [i, name] of names.entries()) req.attach("files", await makeImage("jpeg", 20 + i * 10, 20), name);
  const res = await req;
  expect(res.status).toBe(201);
  return res.body as Array<{ id: number; originalName: string; size: number }>;
}

/** The attachment's photo and thumbnail keys, the thumbnail rendered first if need be. */
const filesOf = async (id: number) => {
  const row = await t.ctx.db("attachments").where({ id }).first();
  return [row.storage_key as string, await thumbnailKey(t.ctx, id)];
};

describe("listing attachments", () => {
  it("lists a project's attachments with X-Total-Count, sorted and paged as asked", async () => {
    await uploadNamed(projectId, "b.jpg", "c.jpg", "a.jpg");
    const other = await insertProjectRow(t.ctx);
    await uploadNamed(other, "z.jpg");

    const all = await request(t.app).get(`/api/attachments?projectId=${projectId}`).set(user.auth);
    expect(all.status).toBe(200);
    expect(all.headers["x-total-count"]).toBe("3");
    // The project's photo order: by capture time, and by name for photos without one (these).
    expect(all.body.map((a: { originalName: string }) => a.originalName)).toEqual(["a.jpg", "b.jpg", "c.jpg"]);
    expect(Object.keys(all.body[0]).sort()).toEqual(
      [
        "id",
        "projectId",
        "originalName",
        "mimeType",
        "size",
        "width",
        "height",
        "checksum",
        "createdAt",
        "updatedAt",
        "viewUrl",
        "downloadUrl",
        "thumbnailUrl",
        "previewUrl",
      ].sort(),
    );

    const page = await request(t.app)
      .get(`/api/attachments?projectId=${projectId}&_sort=originalName&_order=desc&_start=0&_end=2`)
      .set(user.auth);
    expect(page.headers["x-total-count"]).toBe("3");
    expect(page.body.map((a: { originalName: string }) => a.originalName)).toEqual(["c.jpg", "b.jpg"]);

    const bySize = await request(t.app)
      .get(`/api/attachments?projectId=${projectId}&_sort=size&_order=asc`)
      .set(user.auth);
    const sizes = bySize.body.map((a: { size: number }) => a.size);
    expect(sizes).toEqual([...sizes].sort((x: number, y: number) => x - y));
  });

  it("refuses an unknown sort field with 400", async () => {
    const res = await request(t.app).get("/api/attachments?_sort=storageKey").set(user.auth);
    expect(res.status).toBe(400);
  });

  it("gives the same shape to the project detail", async () => {
    const [uploaded] = await uploadNamed(projectId, "detail.jpg");
    const record = await request(t.app).get(`/api/projects/${projectId}`).set(user.auth);
    expect(record.body.attachments).toEqual([uploaded]);
  });

  it("gets one attachment, 404 when unknown, 400 for a bad id", async () => {
    const [uploaded] = await uploadNamed(projectId, "one.jpg");
    const res = await request(t.app).get(`/api/attachments/${uploaded.id}`).set(user.auth);
    expect(res.status).toBe(200);
    expect(res.body).toEqual(uploaded);
    const missing = await request(t.app).get("/api/attachments/99999").set(user.auth);
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ statusCode: 404, message: "Attachment not found" });
    expect((await request(t.app).get("/api/attachments/1.5").set(user.auth)).status).toBe(400);
  });

  it("needs a bearer token", async () => {
    expect((await request(t.app).get("/api/attachments")).status).toBe(401);
  });
});

describe("renaming", () => {
  it.each(["patch", "put"] as const)("renames with %s, trimming the name", async (method) => {
    const [a] = await uploadNamed(projectId, "old.jpg");
    changes = [];
    const api = request(t.app);
    const res = await api[method](`/api/attachments/${a.id}`)
      .set(user.auth)
      .send({ originalName: "  New name ✨.jpg " });
    expect(res.status).toBe(200);
    expect(res.body.originalName).toBe("New name ✨.jpg");
    expect((await t.ctx.db("attachments").where({ id: a.id }).first()).original_name).toBe("New name ✨.jpg");
    expect(changes).toContainEqual({ resource: "attachments", type: "updated", ids: [a.id] });
    expect(changes).toContainEqual({ resource: "projects", type: "updated", ids: [projectId] });
  });

  it("refuses a blank or missing name with 400 'Name is required', and a name over 255 characters", async () => {
    const [a] = await uploadNamed(projectId, "keep.jpg");
    for (const body of [{ originalName: "   " }, {}, { originalName: null }]) {
      const res = await request(t.app).patch(`/api/attachments/${a.id}`).set(user.auth).send(body);
      expect(res.status).toBe(400);
      expect(res.body.message).toBe("Name is required");
    }
    const long = await request(t.app)
      .patch(`/api/attachments/${a.id}`)
      .set(user.auth)
      .send({ originalName: "x".repeat(256) });
    expect(long.status).toBe(400);
    expect((await t.ctx.db("attachments").where({ id: a.id }).first()).original_name).toBe("keep.jpg");
  });

  it("refuses to rename in a published project with 409", async () => {
    const [a] = await uploadNamed(projectId, "keep.jpg");
    await setPublishStatus(t.ctx, projectId, "published");
    const res = await request(t.app).patch(`/api/attachments/${a.id}`).set(user.auth).send({ originalName: "new.jpg" });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ statusCode: 409, message: "Project is published" });
    expect((await t.ctx.db("attachments").where({ id: a.id }).first()).original_name).toBe("keep.jpg");
  });

  it("answers 404 for an unknown attachment", async () => {
    const res = await request(t.app).patch("/api/attachments/99999").set(user.auth).send({ originalName: "x.jpg" });
    expect(res.status).toBe(404);
  });
});

describe("deleting one attachment", () => {
  it("removes the row and both files, and announces it", async () => {
    const [a] = await uploadNamed(projectId, "gone.jpg");
    const files = await filesOf(a.id);
    changes = [];
    const res = await request(t.app).delete(`/api/attachments/${a.id}`).set(user.auth);
    expect(res.status).toBe(204);
    expect(await t.ctx.db("attachments").where({ id: a.id })).toEqual([]);
    for (const f of files) expect(await isStored(t.ctx, f)).toBe(false);
    expect(changes).toEqual([
      { resource: "attachments", type: "deleted", ids: [a.id] },
      { resource: "projects", type: "updated", ids: [projectId] },
    ]);
  });

  it("answers 404 for an unknown attachment", async () => {
    const res = await request(t.app).delete("/api/attachments/99999").set(user.auth);
    expect(res.status).toBe(404);
    expect(res.body.message).toBe("Attachment not found");
  });

  it.each(["published", "publishing"])("keeps an attachment of a %s project (409)", async (status) => {
    const [a] = await uploadNamed(projectId, "kept.jpg");
    await setPublishStatus(t.ctx, projectId, status);
    const res = await request(t.app).delete(`/api/attachments/${a.id}`).set(user.auth);
    expect(res.status).toBe(409);
    expect(await t.ctx.db("attachments").where({ id: a.id })).toHaveLength(1);
    for (const f of await filesOf(a.id)) expect(await isStored(t.ctx, f)).toBe(true);
  });
});

describe("deleting several attachments", () => {
  const bulkDelete = (body: unknown) =>
    request(t.app)
      .delete("/api/attachments")
      .set(user.auth)
      .send(body as object);

  it("deletes all the given attachments and their files", async () => {
    const [a, b, c] = await uploadNamed(projectId, "a.jpg", "b.jpg", "c.jpg");
    const files = [...(await filesOf(a.id)), ...(await filesOf(b.id))];
    const res = await bulkDelete({ ids: [a.id, b.id] });
    expect(res.status).toBe(204);
    expect((await t.ctx.db("attachments").where({ project_id: projectId })).map((r) => r.id)).toEqual([c.id]);
    for (const f of files) expect(await isStored(t.ctx, f)).toBe(false);
    expect(changes).toContainEqual({ resource: "attachments", type: "deleted", ids: [a.id, b.id] });
  });

  it("deletes nothing when one id is unknown (404)", async () => {
    const [a, b] = await uploadNamed(projectId, "a.jpg", "b.jpg");
    const res = await bulkDelete({ ids: [a.id, 99999, b.id] });
    expect(res.status).toBe(404);
    expect(res.body.message).toBe("Attachment not found");
    expect(res.body.errors).toEqual({ ids: "Unknown attachment ids: 99999" });
    expect(await t.ctx.db("attachments").where({ project_id: projectId })).toHaveLength(2);
    for (const f of [...(await filesOf(a.id)), ...(await filesOf(b.id))]) expect(await isStored(t.ctx, f)).toBe(true);
  });

  it("deletes nothing when one attachment is in a published project (409)", async () => {
    const [a] = await uploadNamed(projectId, "a.jpg");
    const published = await insertProjectRow(t.ctx);
    const [p] = await uploadNamed(published, "p.jpg");
    await setPublishStatus(t.ctx, published, "published");
    const res = await bulkDelete({ ids: [a.id, p.id] });
    expect(res.status).toBe(409);
    expect(await t.ctx.db("attachments").whereIn("id", [a.id, p.id])).toHaveLength(2);
  });

  it.each([[{ ids: [] }], [{ ids: "1,2" }], [{ ids: [1, -2] }], [{ ids: [1.5] }], [{}], [[1, 2]]])(
    "refuses %j with 400",
    async (body) => {
      const res = await bulkDelete(body);
      expect(res.status).toBe(400);
      expect(res.body.statusCode).toBe(400);
    },
  );
});

describe("uploads announce themselves", () => {
  it("emits attachments created and projects updated", async () => {
    const [a, b] = await uploadNamed(projectId, "a.jpg", "b.jpg");
    expect(changes).toEqual([
      { resource: "attachments", type: "created", ids: [a.id, b.id] },
      { resource: "projects", type: "updated", ids: [projectId] },
    ]);
  });
});
