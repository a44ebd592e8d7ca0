import path from "node:path";
import request from "supertest";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { appWithUser } from "../test/app-with-user";
import { insertProjectRow } from "../test/rows";
import { webSizeZipKey } from "../storage/published-zips";
import { isStored, publishedKeys, publishedZipCopy, readStored } from "../test/stored-files";
import { addPhoto, projectRow, readZip, recordPublishEvents, unzipTest } from "./test-fixtures";

const made = appWithUser();
const api = () => request(made.t.app);

/** A project offering web size (set through the API before publishing), its photos stored without previews. */
async function publishWithWebSize(names: string[], side = 300) {
  const { ctx } = made.t;
  const id = await insertProjectRow(ctx, { name: "Garden party" });
  const settings = await api().put(`/api/projects/${id}/delivery`).set(made.user.auth).send({ offerWebSize: true });
  expect(settings.status).toBe(200);
  expect(settings.body.delivery).toMatchObject({ allowDownloads: true, offerWebSize: true });
  for (const name of names) await addPhoto(ctx, id, name, side);
  const events = recordPublishEvents(ctx, id);
  expect((await api().post(`/api/projects/${id}/publish`).set(made.user.auth)).status).toBe(202);
  await events.next("publish_completed", 60_000);
  events.stop();
  const row = await projectRow(ctx, id);
  return { id, row, events: events.events, webZip: webSizeZipKey(row.published_zip_path) };
}

const previewsOf = async (id: number) =>
  made.t.ctx
    .db("attachments")
    .where({ project_id: id })
    .orderBy([{ column: "created_at" }, { column: "id" }])
    .select("original_name", "preview_key");

describe("the web-size ZIP", () => {
  it("is built at publish beside the originals' ZIP: every photo's preview, rendered first where missing, under .jpg names de-duplicated", async () => {
    const { ctx } = made.t;
    const { id, row, webZip, events } = await publishWithWebSize(["b.png", "b.jpg", "Sunset.JPEG", "c"]);
    expect(row.publish_status).toBe("published");
    expect(webZip).toBe(row.published_zip_path.slice("published/".length, -4) + "-web.zip");
    expect(await publishedKeys(ctx)).toContain(webZip);

    const previews = await previewsOf(id);
    // Each photo had no preview; publishing made them, and the ZIP holds exactly those files.
    for (const p of previews) expect(p.preview_key).toMatch(/\.preview\.jpg$/);
    const webZipFile = await publishedZipCopy(ctx, webZip);
    const entries = await readZip(webZipFile);
    expect(entries.map((e) => e.name)).toEqual(["b-web.jpg", "b-web (1).jpg", "Sunset-web.JPEG", "c-web.jpg"]);
    for (const [i, entry] of entries.entries())
      expect(entry.content.equals(await readStored(ctx, previews[i].preview_key))).toBe(true);
    expect((await sharp(entries[0].content).metadata()).format).toBe("jpeg");
    expect(await unzipTest(webZipFile)).toMatch(/No errors detected/);

    // The originals' ZIP is as it always was.
    const originals = await readZip(await publishedZipCopy(ctx, path.basename(row.published_zip_path)));
    expect(originals.map((e) => e.name)).toEqual(["b.png", "b.jpg", "Sunset.JPEG", "c"]);

    const progress = events.filter((e) => e.type === "publish_progress").map((e) => e.data.progress!);
    expect(progress.length).toBeGreaterThan(0);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
    expect(progress.every((p) => p > 0 && p < 100)).toBe(true);
    expect(events.at(-1)).toMatchObject({ type: "publish_completed", data: { progress: 100 } });
  });

  it("is not built for a project without web size, whose publish is as before", async () => {
    const { ctx } = made.t;
    const id = await insertProjectRow(ctx, { name: "Plain" });
    await addPhoto(ctx, id, "one.jpg");
    const events = recordPublishEvents(ctx, id);
    expect((await api().post(`/api/projects/${id}/publish`).set(made.user.auth)).status).toBe(202);
    await events.next("publish_completed");
    events.stop();
    const row = await projectRow(ctx, id);
    expect(await isStored(ctx, webSizeZipKey(row.published_zip_path), "published")).toBe(false);
    expect((await previewsOf(id))[0].preview_key).toBeNull();
  });

  it("follows its ZIP when the link is regenerated, and goes with it when the project is unpublished", async () => {
    const { ctx } = made.t;
    const { id, webZip } = await publishWithWebSize(["one.jpg"], 64);
    const bytes = await readStored(ctx, webZip, "published");
    expect((await api().post(`/api/projects/${id}/delivery/regenerate`).set(made.user.auth)).status).toBe(200);
    const renamed = webSizeZipKey((await projectRow(ctx, id)).published_zip_path);
    expect(renamed).not.toBe(webZip);
    expect(await isStored(ctx, webZip, "published")).toBe(false);
    expect((await readStored(ctx, renamed, "published")).equals(bytes)).toBe(true);

    expect((await api().delete(`/api/projects/${id}/publish`).set(made.user.auth)).status).toBe(200);
    expect(await isStored(ctx, renamed, "published")).toBe(false);
  });

  it("goes with its project when the project is deleted", async () => {
    const { id, webZip } = await publishWithWebSize(["one.jpg"], 64);
    expect(await isStored(made.t.ctx, webZip, "published")).toBe(true);
    expect((await api().delete(`/api/projects/${id}`).set(made.user.auth)).status).toBe(204);
    expect(await isStored(made.t.ctx, webZip, "published")).toBe(false);
  });
});
