import request from "supertest";
import { describe, expect, it } from "vitest";
import { appWithUser } from "../test/app-with-user";
import { insertAttachmentRow, insertProjectRow } from "../test/rows";

const made = appWithUser();

/** File names that look like the page's own structure, and text JSON escapes or writes in several bytes. */
const NAMES = [
  'a{"id":7}b.jpg',
  '},{"id":12,"x":"y.jpg',
  '"viewUrl":"/api/attachments/1/view".jpg',
  "back\\slash\\.jpg",
  "写真 — été.jpg",
  "📷 camera].jpg",
  "tab\tand\nnewline.jpg",
  "plain.jpg",
];

async function listed(query: string) {
  const res = await request(made.t.app).get(`/api/attachments?${query}`).set(made.user.auth);
  expect(res.status).toBe(200);
  return res;
}

describe("a page of photos", () => {
  it("gives every row its own four signed links, whatever its file name holds, as the photo's own record does", async () => {
    const projectId = await insertProjectRow(made.t.ctx, { name: "Names" });
    const ids: number[] = [];
    for (const [i, name] of NAMES.entries())
      ids.push(await insertAttachmentRow(made.t.ctx, projectId, { size: 1000 + i, originalName: name }));

    const res = await listed(`projectId=${projectId}&_sort=id&_order=asc`);
    expect(res.headers["x-total-count"]).toBe(String(NAMES.length));
    const rows = JSON.parse(res.text) as Array<Record<string, unknown>>;
    expect(rows.map((r) => r.id)).toEqual(ids);
    expect(rows.map((r) => r.originalName)).toEqual(NAMES);
    for (const row of rows) {
      const own = await request(made.t.app)
        .get(`/api/attachments/${String(row.id)}`)
        .set(made.user.auth);
      expect(row).toEqual(own.body);
      expect(Object.keys(row).slice(-4)).toEqual(["viewUrl", "downloadUrl", "thumbnailUrl", "previewUrl"]);
    }
    // Each link opens its own photo (a row has no file: 404), and a signature moved to another is refused.
    const signature = (url: unknown) => String(url).slice(String(url).indexOf("&sig="));
    const [first, second] = rows;
    expect((await request(made.t.app).get(String(first.viewUrl))).status).toBe(404);
    const moved = String(second.viewUrl).replace(signature(second.viewUrl), signature(first.viewUrl));
    expect((await request(made.t.app).get(moved)).status).toBe(403);
  });

  it("is an empty array past the last photo", async () => {
    const projectId = await insertProjectRow(made.t.ctx, { name: "Empty" });
    const res = await listed(`projectId=${projectId}&_start=0&_end=25`);
    expect(res.text).toBe("[]");
    expect(res.headers["x-total-count"]).toBe("0");
  });
});
