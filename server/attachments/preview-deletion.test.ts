import request from "supertest";
import { beforeEach, describe, expect, it } from "vitest";
import { appWithUser } from "../test/app-with-user";
import { insertProjectRow } from "../test/rows";
import { makeNoisyJpeg } from "./test-fixtures";
import { renditionQueue } from "./renditions.service";
import { isStored, storedUploads } from "../test/stored-files";

const made = appWithUser();
let projectId: number;

beforeEach(async () => {
  projectId = await insertProjectRow(made.t.ctx);
});

/** Two photos uploaded, each with its preview rendered: their ids and the previews' files. */
async function photosWithPreviews(): Promise<{ ids: number[]; previews: string[] }> {
  const ids: number[] = [];
  const previews: string[] = [];
  for (const name of ["a.jpg", "b.jpg"]) {
    const res = await request(made.t.app)
      .post(`/api/attachments/projects/${projectId}/upload`)
      .set(made.user.auth)
      .attach("file", await makeNoisyJpeg(600, 400), name);
    expect(res.status).toBe(201);
    const key = await renditionQueue(made.t.ctx).renderNow("preview", res.body.id);
    expect(key).not.toBeNull();
    ids.push(res.body.id);
    previews.push(key!);
  }
  for (const key of previews) expect(await isStored(made.t.ctx, key)).toBe(true);
  return { ids, previews };
}

const projectFiles = async () => (await storedUploads(made.t.ctx)).filter((f) => f.startsWith(`${projectId}/`));
const remove = (url: string, body?: object) => request(made.t.app).delete(url).set(made.user.auth).send(body);

describe("a photo's preview goes with it", () => {
  it("when the photo is deleted", async () => {
    const { ids, previews } = await photosWithPreviews();
    expect((await remove(`/api/attachments/${ids[0]}`)).status).toBe(204);
    expect(await isStored(made.t.ctx, previews[0])).toBe(false);
    expect(await isStored(made.t.ctx, previews[1])).toBe(true);
  });

  it("when photos are deleted by their ids", async () => {
    const { ids, previews } = await photosWithPreviews();
    expect((await remove("/api/attachments", { ids })).status).toBe(204);
    expect(await Promise.all(previews.map((key) => isStored(made.t.ctx, key)))).toEqual([false, false]);
    expect(await projectFiles()).toEqual([]);
  });

  it("when every photo of the project is deleted at once", async () => {
    const { previews } = await photosWithPreviews();
    expect((await remove("/api/attachments", { projectId, count: 2 })).status).toBe(204);
    expect(await Promise.all(previews.map((key) => isStored(made.t.ctx, key)))).toEqual([false, false]);
    expect(await projectFiles()).toEqual([]);
  });

  it("when the project is deleted", async () => {
    const { previews } = await photosWithPreviews();
    expect((await remove(`/api/projects/${projectId}`)).status).toBe(204);
    expect(await Promise.all(previews.map((key) => isStored(made.t.ctx, key)))).toEqual([false, false]);
    expect(await projectFiles()).toEqual([]);
  });
});
