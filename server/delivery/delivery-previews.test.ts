import request from "supertest";
import sharp from "sharp";
import { beforeAll, describe, expect, it } from "vitest";
import { appWithUser } from "../test/app-with-user";
import { readStored, removeStored, writeStored } from "../test/stored-files";
import { GRID_SIZES } from "./delivery-page";
import { publishDelivery, type PublishedDelivery } from "./test-fixtures";
import { getBinary } from "../test/binary-body";

const made = appWithUser();
let d: PublishedDelivery;

beforeAll(async () => {
  d = await publishDelivery(made.t, made.user, { photoNames: ["a.jpg", "b.png.jpg", "c.jpg"], side: 320 });
});

const get = (url: string, headers: Record<string, string> = {}) => getBinary(made.t.app, url, headers);

const rowAt = async (n: number) =>
  (
    await made.t.ctx
      .db("attachments")
      .where({ project_id: d.id })
      .orderBy([{ column: "created_at" }, { column: "id" }])
      .select("id", "storage_key", "preview_key", "checksum")
  )[n - 1];

describe("the delivery's previews", () => {
  it("serves a photo's preview at v/<n>: a JPEG tagged by the photo's checksum, inline under a .jpg name", async () => {
    const res = await get(`${d.page}/v/2`);
    expect(res.status).toBe(200);
    expect(res.headers["content-type"]).toBe("image/jpeg");
    const row = await rowAt(2);
    expect(res.headers.etag).toBe(`"${row.checksum}-preview"`);
    expect(res.headers["content-disposition"]).toBe("inline; filename=b.png.jpg");
    expect(res.headers["cache-control"]).toBe("private, no-cache");
    expect(row.preview_key).toMatch(/\.preview\.jpg$/);
    expect((res.body as Buffer).equals(await readStored(made.t.ctx, row.preview_key))).toBe(true);
    const meta = await sharp(res.body as Buffer).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(["jpeg", 320, 320]);
    const again = await get(`${d.page}/v/2`, { "If-None-Match": res.headers.etag });
    expect(again.status).toBe(304);
  });

  it("answers 404 for a position past the last photo and for an unknown link, and no download of a preview", async () => {
    expect((await get(`${d.page}/v/4`)).status).toBe(404);
    expect((await get(`${d.page}/v/0`)).status).toBe(404);
    expect((await get(`/d/${"x".repeat(22)}/v/1`)).status).toBe(404);
    expect((await get(`${d.page}/v/1/download`)).status).toBe(404);
  });

  it("shows a photo whose preview cannot be rendered itself", async () => {
    const row = await rowAt(3);
    // Cut short, as a file damaged on disk after its upload would be.
    const damaged = (await readStored(made.t.ctx, row.storage_key)).subarray(0, 400);
    await removeStored(made.t.ctx, row.storage_key);
    await writeStored(made.t.ctx, row.storage_key, damaged);
    const res = await get(`${d.page}/v/3`);
    expect(res.status).toBe(200);
    expect(res.headers["content-type"]).toBe("image/jpeg");
    expect(res.headers.etag).toBe(`"${row.checksum}"`);
    expect((res.body as Buffer).equals(damaged)).toBe(true);
  });

  it("offers each grid photo's thumbnail and preview by srcset, and the viewer shows the preview", async () => {
    const page = (await request(made.t.app).get(d.page)).text;
    expect(page).toContain(
      `<img src="t/1" srcset="t/1 400w, v/1 2048w" sizes="${GRID_SIZES}" alt="a.jpg" loading="lazy" decoding="async">`,
    );
    const script = (await request(made.t.app).get("/d/assets/delivery.js")).text;
    expect(script).toContain('image.src = "v/" + current;');
    expect(script).toContain('original.href = "p/" + n + "/download";');
  });
});
