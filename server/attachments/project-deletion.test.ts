import request from "supertest";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { ResourceChange } from "../events/bus";
import { nowIso } from "../db/database";
import type { TestApp, TestUser } from "../test/harness";
import { storedUploads, writeStored } from "../test/stored-files";
import { appWithUser } from "../test/app-with-user";
import { insertProjectRow } from "../test/rows";
import { setPublishStatus } from "./test-fixtures";
import { SELECTION_CHANGED } from "./attachments.service";

const made = appWithUser();
let t: TestApp;
let user: TestUser;
let projectId: number;
let changes: ResourceChange[];

beforeAll(() => {
  ({ t, user } = made);
  t.ctx.events.onResourceChanged((c) => c.resource !== "dashboard" && changes.push(c));
});
beforeEach(async () => {
  projectId = await insertProjectRow(t.ctx);
  changes = [];
});

const idsOf = async (project: number) =>
  (await t.ctx.db("attachments").where({ project_id: project }).orderBy("id").pluck("id")).map(Number);

/** `n` attachment rows written by SQL, each with a small real file of its own; their ids in upload order. */
async function arrangePhotos(project: number, n: number): Promise<number[]> {
  const now = nowIso();
  for (let i = 0; i < n; i += 100)
    await Promise.all(
      Array.from({ length: Math.min(100, n - i) }, (_, j) =>
        writeStored(t.ctx, `${project}/photo-${i + j}.jpg`, `photo ${i + j}`),
      ),
    );
  const rows = Array.from({ length: n }, (_, i) => {
    const storageKey = `${project}/photo-${i}.jpg`;
    return {
      project_id: project,
      original_name: `photo-${i}.jpg`,
      storage_key: storageKey,
      mime_type: "image/jpeg",
      size: 8,
      checksum: "0".repeat(64),
      created_at: now,
      updated_at: now,
    };
  });
  await t.ctx.db.batchInsert("attachments", rows, 500);
  return idsOf(project);
}

const deleteAll = (body: unknown) =>
  request(t.app)
    .delete("/api/attachments")
    .set(user.auth)
    .send(body as object);

describe("deleting every attachment of a project", () => {
  it("deletes all but the kept ones, with their files, and announces it", async () => {
    const [a, b, c, d] = await arrangePhotos(projectId, 4);
    const other = await insertProjectRow(t.ctx);
    const [untouched] = await arrangePhotos(other, 1);

    const res = await deleteAll({ projectId, exceptIds: [c], count: 3 });
    expect(res.status).toBe(204);
    expect(await idsOf(projectId)).toEqual([c]);
    expect(await idsOf(other)).toEqual([untouched]);
    expect((await storedUploads(t.ctx)).filter((f) => f.startsWith(`${projectId}/`))).toEqual([
      `${projectId}/photo-2.jpg`,
    ]);
    expect(changes).toEqual([
      { resource: "attachments", type: "deleted", ids: [a, b, d] },
      { resource: "projects", type: "updated", ids: [projectId] },
    ]);
    const project = await request(t.app).get(`/api/projects/${projectId}`).set(user.auth);
    expect(project.body.attachmentCount).toBe(1);
  });

  it("deletes 10,000 attachments in one call", { timeout: 120_000 }, async () => {
    await arrangePhotos(projectId, 10_000);
    const res = await deleteAll({ projectId, count: 10_000 });
    expect(res.status).toBe(204);
    expect(await idsOf(projectId)).toEqual([]);
    expect((await storedUploads(t.ctx)).filter((f) => f.startsWith(`${projectId}/`))).toEqual([]);
    const project = await request(t.app).get(`/api/projects/${projectId}`).set(user.auth);
    expect(project.body).toMatchObject({ attachmentCount: 0, totalFileSize: 0 });
  });

  it("deletes nothing when the project no longer holds what was confirmed (409)", async () => {
    const ids = await arrangePhotos(projectId, 3);
    const res = await deleteAll({ projectId, count: 2 });
    expect(res.status).toBe(409);
    expect(res.body.message).toBe(SELECTION_CHANGED);
    expect(await idsOf(projectId)).toEqual(ids);
    expect(changes).toEqual([]);
  });

  it("refuses a published project with 409 and an unknown one with 404", async () => {
    const ids = await arrangePhotos(projectId, 2);
    await setPublishStatus(t.ctx, projectId, "published");
    const published = await deleteAll({ projectId, count: 2 });
    expect(published.status).toBe(409);
    expect(published.body.message).toBe("Project is published");
    expect(await idsOf(projectId)).toEqual(ids);
    const missing = await deleteAll({ projectId: 999_999, count: 1 });
    expect(missing.status).toBe(404);
    expect(missing.body.message).toBe("Project not found");
  });

  it.each([
    [{ projectId: 0, count: 1 }],
    [{ projectId: "1", count: 1 }],
    [{ projectId: 1 }],
    [{ projectId: 1, count: 0 }],
    [{ projectId: 1, count: 1.5 }],
    [{ projectId: 1, count: 1, exceptIds: "2" }],
    [{ projectId: 1, count: 1, exceptIds: [-2] }],
  ])("refuses %j with 400", async (body) => {
    const res = await deleteAll(body);
    expect(res.status).toBe(400);
    expect(res.body.statusCode).toBe(400);
    expect(typeof res.body.message).toBe("string");
  });
});
