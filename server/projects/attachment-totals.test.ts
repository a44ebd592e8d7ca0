import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeImage, makeNoisyJpeg } from "../attachments/test-fixtures";
import { createTestApp, createUser, type TestApp, type TestUser } from "../test/harness";
import { insertProjectRow } from "../test/rows";

let t: TestApp;
let user: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  user = await createUser(t.ctx);
});
afterAll(() => t.close());

/** Every project's stored totals beside the real count and sum of its attachments. */
async function storedAndReal() {
  const rows = await t.ctx
    .db("projects as p")
    .select(
      "p.id",
      "p.attachment_count",
      "p.total_file_size",
      t.ctx.db.raw("(SELECT count(*) FROM attachments a WHERE a.project_id = p.id) AS real_count"),
      t.ctx.db.raw("(SELECT coalesce(sum(a.size), 0) FROM attachments a WHERE a.project_id = p.id) AS real_size"),
    );
  return rows.map((r) => ({
    id: r.id,
    stored: [Number(r.attachment_count), Number(r.total_file_size)],
    real: [Number(r.real_count), Number(r.real_size)],
  }));
}

const upload = (projectId: number, bytes: Buffer, name: string) =>
  request(t.app).post(`/api/attachments/projects/${projectId}/upload`).set(user.auth).attach("file", bytes, name);

describe("attachment count and total size kept on the project row", () => {
  it("always equal the real count and sum through uploads, refusals, deletions, concurrency and project deletion", async () => {
    const [a, b, c] = [await insertProjectRow(t.ctx), await insertProjectRow(t.ctx), await insertProjectRow(t.ctx)];
    const first = await upload(a, await makeImage("jpeg"), "one.jpg");
    expect(first.status).toBe(201);
    // A batch with one bad file is refused whole.
    const batch = await request(t.app)
      .post(`/api/attachments/projects/${a}/upload-multiple`)
      .set(user.auth)
      .attach("files", await makeImage("png"), "good.png")
      .attach("files", Buffer.from("not an image"), "bad.jpg");
    expect(batch.status).toBe(415);
    // Twelve at once into two projects.
    const photo = await makeNoisyJpeg(200, 150);
    const parallel = await Promise.all(
      Array.from({ length: 12 }, (_, i) => upload(i % 2 === 0 ? b : c, photo, `p${i}.jpg`)),
    );
    expect(parallel.map((r) => r.status)).toEqual(Array(12).fill(201));
    for (const row of await storedAndReal()) expect(row.stored).toEqual(row.real);

    const removed = await request(t.app).delete(`/api/attachments/${parallel[0].body.id}`).set(user.auth);
    expect(removed.status).toBeLessThan(300);
    const listed = await request(t.app).get(`/api/projects/${b}`).set(user.auth);
    expect(listed.body.attachmentCount).toBe(5);
    expect(listed.body.totalFileSize).toBe(5 * photo.length);
    await request(t.app)
      .delete(`/api/projects/${c}`)
      .set(user.auth)
      .expect((res) => expect(res.status).toBeLessThan(300));
    for (const row of await storedAndReal()) expect(row.stored).toEqual(row.real);
    expect((await storedAndReal()).map((r) => r.id).sort()).toEqual([a, b].sort());
  });
});
