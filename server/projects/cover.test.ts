import request from "supertest";
import { describe, expect, it } from "vitest";
import { appWithUser } from "../test/app-with-user";
import { insertAttachmentRow, insertProjectRow } from "../test/rows";
import type { ResourceChange } from "../events/bus";
import { publishDelivery } from "../delivery/test-fixtures";

const made = appWithUser();
// Registered after the app's own hooks, so it runs before the app closes.

const api = () => request(made.t.app);
const project = async (id: number) => (await api().get(`/api/projects/${id}`).set(made.user.auth)).body;
const setCover = (id: number, attachmentId: unknown) =>
  api().put(`/api/projects/${id}/cover`).set(made.user.auth).send({ attachmentId });

async function projectWithPhotos(count: number): Promise<{ id: number; photos: number[] }> {
  const id = await insertProjectRow(made.t.ctx, { name: "Cover test" });
  const photos: number[] = [];
  for (let i = 0; i < count; i++) photos.push(await insertAttachmentRow(made.t.ctx, id, { size: 100 }));
  return { id, photos };
}

describe("a project's cover", () => {
  it("is null without photos and the first photo by default, in the record and in lists", async () => {
    const empty = await projectWithPhotos(0);
    expect((await project(empty.id)).coverAttachmentId).toBeNull();
    const { id, photos } = await projectWithPhotos(3);
    expect((await project(id)).coverAttachmentId).toBe(photos[0]);
    const list = await api().get(`/api/projects?id=${id}`).set(made.user.auth);
    expect(list.body[0].coverAttachmentId).toBe(photos[0]);
  });

  it("is chosen by staff, announced as a project change, and set back to the first with null", async () => {
    const { id, photos } = await projectWithPhotos(3);
    const seen: ResourceChange[] = [];
    const stop = made.t.ctx.events.onResourceChanged((c) => seen.push(c));
    const res = await setCover(id, photos[2]);
    stop();
    expect(res.status).toBe(200);
    expect(res.body.coverAttachmentId).toBe(photos[2]);
    expect(seen).toContainEqual({ resource: "projects", type: "updated", ids: [id] });
    expect((await project(id)).coverAttachmentId).toBe(photos[2]);
    expect((await setCover(id, null)).body.coverAttachmentId).toBe(photos[0]);
    expect((await made.t.ctx.db("projects").where({ id }).first()).cover_attachment_id).toBeNull();
  });

  it("keeps every field the project had", async () => {
    const { id } = await projectWithPhotos(1);
    const before = await project(id);
    const after = (await setCover(id, null)).body;
    const { attachments: _a, ...fields } = before;
    expect(after).toEqual(fields);
  });

  it("refuses a photo of another project, bad ids and unknown projects, changing nothing", async () => {
    const { id, photos } = await projectWithPhotos(2);
    const other = await projectWithPhotos(1);
    await setCover(id, photos[1]);
    for (const bad of [other.photos[0], 999_999, 0, -1, 1.5, "abc", true, undefined]) {
      const res = await setCover(id, bad);
      expect(res.status, String(bad)).toBe(400);
    }
    expect((await setCover(id, other.photos[0])).body.message).toBe("The cover must be one of the project's photos");
    expect((await project(id)).coverAttachmentId).toBe(photos[1]);
    expect((await setCover(999_999, null)).status).toBe(404);
    expect((await api().put(`/api/projects/${id}/cover`).send({ attachmentId: null })).status).toBe(401);
  });

  it("falls back to the first photo when the chosen one is deleted, never naming a photo that is gone", async () => {
    const { id, photos } = await projectWithPhotos(3);
    await setCover(id, photos[1]);
    expect((await api().delete(`/api/attachments/${photos[1]}`).set(made.user.auth)).status).toBe(204);
    expect((await made.t.ctx.db("projects").where({ id }).first()).cover_attachment_id).toBeNull();
    expect((await project(id)).coverAttachmentId).toBe(photos[0]);
    // And when the first photo, the default, goes: the next one.
    expect((await api().delete(`/api/attachments/${photos[0]}`).set(made.user.auth)).status).toBe(204);
    expect((await project(id)).coverAttachmentId).toBe(photos[2]);
  });

  it("can be chosen while the project is published, and the delivery page shows it at once", async () => {
    const d = await publishDelivery(made.t, made.user, { name: "Published" });
    const ids = (await made.t.ctx.db("attachments").where({ project_id: d.id }).orderBy("id").select("id")).map(
      (r: { id: number }) => r.id,
    );
    expect((await api().get(d.page)).text).toContain('<div class="cover"><img src="v/1"');
    expect((await setCover(d.id, ids[2])).status).toBe(200);
    expect((await api().get(d.page)).text).toContain('<div class="cover"><img src="v/3"');
  });
});
