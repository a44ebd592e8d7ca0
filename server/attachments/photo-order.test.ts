import crypto from "node:crypto";
import path from "node:path";
import request from "supertest";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { lightroomFilter } from "../../api/favourites";
import { appWithUser } from "../test/app-with-user";
import { attachmentRow, insertAttachmentRow, insertProjectRow } from "../test/rows";
import { publishedZipCopy, writeStored } from "../test/stored-files";
import { until } from "../test/wait";
import { webSizeZipKey } from "../storage/published-zips";
import { projectRow, readZip, recordPublishEvents } from "../publish/test-fixtures";
import { visitorOf } from "../favourites/test-fixtures";
import { backfillCaptureTimes, readCaptureTimes } from "./capture-backfill";
import { nameKey, orderKeys } from "./photo-order";

const made = appWithUser();
const api = () => request(made.t.app);

/** A JPEG as a camera writes it: DateTimeOriginal in the camera's clock, with that clock's UTC offset when given. */
async function cameraJpeg(taken?: string, offset?: string): Promise<Buffer> {
  const image = sharp({ create: { width: 24, height: 16, channels: 3, background: "#7a8" } }).jpeg();
  if (!taken) return image.toBuffer();
  const photo: Record<string, string> = { DateTimeOriginal: taken };
  if (offset) photo.OffsetTimeOriginal = offset;
  return image.withExif({ IFD0: { Make: "Test camera" }, IFD2: photo }).toBuffer();
}

/** Two cameras, one at UTC+2 and one at UTC−5, and two photos without EXIF: in the order they were uploaded. */
const SHOTS: Array<{ name: string; taken?: string; offset?: string }> = [
  { name: "IMG_10.jpg" },
  { name: "A_0011.jpg", taken: "2026:06:01 12:45:00", offset: "+02:00" }, // 10:45 UTC
  { name: "B_0002.jpg", taken: "2026:06:01 05:30:00", offset: "-05:00" }, // 10:30 UTC
  { name: "IMG_2.jpg" },
  { name: "A_0010.jpg", taken: "2026:06:01 12:00:00", offset: "+02:00" }, // 10:00 UTC
  { name: "B_0010.jpg", taken: "2026:06:01 04:50:00", offset: "-05:00" }, // 09:50 UTC
];
const UPLOADED = SHOTS.map((s) => s.name);
const CAPTURED = ["B_0010.jpg", "A_0010.jpg", "B_0002.jpg", "A_0011.jpg", "IMG_2.jpg", "IMG_10.jpg"];
const BY_NAME = ["A_0010.jpg", "A_0011.jpg", "B_0002.jpg", "B_0010.jpg", "IMG_2.jpg", "IMG_10.jpg"];

const namesOf = (body: Array<{ originalName: string }>) => body.map((a) => a.originalName);

async function listed(projectId: number, query = ""): Promise<string[]> {
  const res = await api().get(`/api/attachments?projectId=${projectId}${query}`).set(made.user.auth);
  expect(res.status).toBe(200);
  return namesOf(res.body);
}

/** The list read in pages of two, as the grid pages it. */
async function paged(projectId: number): Promise<string[]> {
  const names: string[] = [];
  for (let start = 0; start < SHOTS.length; start += 2)
    names.push(...(await listed(projectId, `&_start=${start}&_end=${start + 2}`)));
  return names;
}

const setOrder = (projectId: number, photoOrder: unknown) =>
  api().patch(`/api/projects/${projectId}`).set(made.user.auth).send({ photoOrder });

async function projectWithShots(): Promise<number> {
  const created = await api().post("/api/projects").set(made.user.auth).send({ name: "Two cameras" });
  expect(created.status).toBe(201);
  expect(created.body.photoOrder).toBe("captured");
  const id = created.body.id as number;
  for (const shot of SHOTS) {
    const res = await api()
      .post(`/api/attachments/projects/${id}/upload`)
      .set(made.user.auth)
      .attach("file", await cameraJpeg(shot.taken, shot.offset), shot.name);
    expect(res.status).toBe(201);
  }
  return id;
}

async function publish(id: number) {
  const events = recordPublishEvents(made.t.ctx, id);
  expect((await api().post(`/api/projects/${id}/publish`).set(made.user.auth)).status).toBe(202);
  await events.next("publish_completed", 60_000);
  events.stop();
  const row = await projectRow(made.t.ctx, id);
  const zipKey = path.basename(row.published_zip_path);
  return { token: zipKey.replace(/\.zip$/, ""), zipKey, webZipKey: webSizeZipKey(row.published_zip_path) };
}

/** What the client sees and downloads: the gallery's photos, both ZIPs' entries. */
async function delivered(published: { token: string; zipKey: string; webZipKey: string }) {
  const { ctx } = made.t;
  const part = await request(made.t.app).get(`/d/${published.token}/photos`).query({ from: 1 });
  expect(part.status).toBe(200);
  const zip = await readZip(await publishedZipCopy(ctx, published.zipKey));
  const webZip = await readZip(await publishedZipCopy(ctx, published.webZipKey));
  return {
    gallery: (part.body.photos as Array<{ name: string }>).map((p) => p.name),
    zip: zip.map((e) => e.name),
    webZip: webZip.map((e) => e.name),
  };
}

describe("the order of a project's photos", () => {
  it("is capture time by default (UTC across cameras, file name without one), else natural file name or upload, in the list, the gallery, both ZIPs and the favourites", async () => {
    const id = await projectWithShots();
    expect(await listed(id)).toEqual(CAPTURED);
    expect(await paged(id)).toEqual(CAPTURED);
    const record = await api().get(`/api/projects/${id}`).set(made.user.auth);
    expect(namesOf(record.body.attachments)).toEqual(CAPTURED);
    // An explicit sort is still honoured.
    expect(await listed(id, "&_sort=id")).toEqual(UPLOADED);
    // With no cover chosen, the cover is the first photo in the project's order, in the list too.
    const idOf = (name: string) =>
      (record.body.attachments as Array<{ id: number; originalName: string }>).find((a) => a.originalName === name)!.id;
    const cover = async () => {
      const one = (await api().get(`/api/projects/${id}`).set(made.user.auth)).body.coverAttachmentId;
      const list = await api().get(`/api/projects?id=${id}`).set(made.user.auth);
      expect(list.body[0].coverAttachmentId).toBe(one);
      return one as number;
    };
    expect(await cover()).toBe(idOf(CAPTURED[0]));

    expect((await setOrder(id, "name")).body.photoOrder).toBe("name");
    expect(await listed(id)).toEqual(BY_NAME);
    expect(await paged(id)).toEqual(BY_NAME);
    expect(await cover()).toBe(idOf(BY_NAME[0]));
    expect((await setOrder(id, "uploaded")).status).toBe(200);
    expect(await paged(id)).toEqual(UPLOADED);
    expect(await cover()).toBe(idOf(UPLOADED[0]));
    const refused = await setOrder(id, "random");
    expect(refused.status).toBe(400);
    expect(refused.body.errors).toHaveProperty("photoOrder");
    expect((await setOrder(id, "captured")).status).toBe(200);

    const settings = await api().put(`/api/projects/${id}/delivery`).set(made.user.auth).send({ offerWebSize: true });
    expect(settings.status).toBe(200);
    const published = await publish(id);
    const web = (names: string[]) => names.map((n) => n.replace(/\.jpg$/, "-web.jpg"));
    expect(await delivered(published)).toEqual({ gallery: CAPTURED, zip: CAPTURED, webZip: web(CAPTURED) });

    // Fixed while published, as every other change to a published project's photos.
    const locked = await setOrder(id, "name");
    expect(locked.status).toBe(409);
    expect(await listed(id)).toEqual(CAPTURED);

    // Favourites and the Lightroom text follow the gallery, whatever order they were marked in.
    const visitor = visitorOf(made.t, published.token, "198.51.100.7");
    expect((await visitor.join()).status).toBeLessThan(300);
    for (const n of [6, 1, 3]) expect((await visitor.mark(n)).status).toBeLessThan(300);
    const [listedVisitor] = (await api().get(`/api/projects/${id}/favourites`).set(made.user.auth)).body;
    const selection = await api().get(`/api/projects/${id}/favourites/${listedVisitor.id}`).set(made.user.auth);
    const picked = (selection.body.picks as Array<{ originalName: string }>).map((p) => p.originalName);
    expect(picked).toEqual([CAPTURED[0], CAPTURED[2], CAPTURED[5]]);
    expect(lightroomFilter(picked)).toBe("B_0010 OR B_0002 OR IMG_10");

    // Unpublished, ordered by name and published again: everything follows the new order.
    expect((await api().delete(`/api/projects/${id}/publish`).set(made.user.auth)).status).toBeLessThan(300);
    expect((await setOrder(id, "name")).status).toBe(200);
    const republished = await publish(id);
    expect(await delivered(republished)).toEqual({ gallery: BY_NAME, zip: BY_NAME, webZip: web(BY_NAME) });
    const again = await api().get(`/api/projects/${id}/favourites/${listedVisitor.id}`).set(made.user.auth);
    expect(namesOf(again.body.picks)).toEqual(["B_0002.jpg", "B_0010.jpg", "IMG_10.jpg"]);
  });

  it("sorts file names as people do: digits by value, case and accents aside", () => {
    const names = ["img_10.jpg", "IMG_2.jpg", "IMG_0003.jpg", "Émile 1.jpg", "emile 02.jpg", "IMG_1.jpg", "a.jpg"];
    const collator = new Intl.Collator(undefined, { numeric: true, sensitivity: "base" });
    const byKey = [...names].sort((a, b) => (nameKey(a) < nameKey(b) ? -1 : nameKey(a) > nameKey(b) ? 1 : 0));
    expect(byKey).toEqual([...names].sort(collator.compare));
  });
});

describe("a long project's pages in capture and name order", () => {
  it("are the sorted list cut in pages, deep pages too, and follow a rename", async () => {
    const { ctx } = made.t;
    const id = await insertProjectRow(ctx, { name: "Marathon" });
    const photos = Array.from({ length: 700 }, (_, i) => {
      const name = `IMG_${(i * 37) % 700}.jpg`;
      const capturedAt = i % 5 === 0 ? null : new Date(Date.UTC(2026, 5, 1) + ((i * 53) % 700) * 60_000).toISOString();
      return { name, capturedAt };
    });
    const rows = photos.map((p) => ({
      ...attachmentRow(id, { size: 1, originalName: p.name }),
      captured_at: p.capturedAt,
      captured_at_checked: true,
      ...orderKeys(p.name, p.capturedAt),
    }));
    await ctx.db.batchInsert("attachments", rows, 100);
    const collator = new Intl.Collator(undefined, { numeric: true, sensitivity: "base" });
    const byName = photos.map((p) => p.name).sort(collator.compare);
    const timed = photos.filter((p) => p.capturedAt).sort((a, b) => a.capturedAt!.localeCompare(b.capturedAt!));
    const byCapture = [
      ...timed.map((p) => p.name),
      ...photos
        .filter((p) => !p.capturedAt)
        .map((p) => p.name)
        .sort(collator.compare),
    ];
    const page = (start: number) => listed(id, `&_start=${start}&_end=${start + 25}`);

    expect(await page(600)).toEqual(byCapture.slice(600, 625));
    expect(await page(300)).toEqual(byCapture.slice(300, 325));
    expect((await setOrder(id, "name")).status).toBe(200);
    expect(await page(600)).toEqual(byName.slice(600, 625));
    expect(await page(675)).toEqual(byName.slice(675, 700));

    // Renamed to sort first: every later page moves by one.
    const [renamed] = await ctx.db("attachments").where({ project_id: id, original_name: byName[650] }).select("id");
    const res = await api()
      .patch(`/api/attachments/${renamed.id}`)
      .set(made.user.auth)
      .send({ originalName: "A_1.jpg" });
    expect(res.status).toBe(200);
    const after = ["A_1.jpg", ...byName.filter((_, i) => i !== 650)];
    expect(await page(600)).toEqual(after.slice(600, 625));
  });
});

describe("photos stored before capture times were kept", () => {
  /** A photo stored and recorded as the previous release did: no capture time, never read. */
  async function storedBefore(projectId: number, shot: (typeof SHOTS)[number]) {
    const bytes = await cameraJpeg(shot.taken, shot.offset);
    const storageKey = `${projectId}/${crypto.randomBytes(12).toString("hex")}.jpg`;
    await writeStored(made.t.ctx, storageKey, bytes);
    const checksum = crypto.createHash("sha256").update(bytes).digest("hex");
    return insertAttachmentRow(made.t.ctx, projectId, {
      originalName: shot.name,
      storageKey,
      size: bytes.length,
      checksum,
    });
  }

  it("get their capture time from the background job, each read once, in small batches", async () => {
    const { ctx } = made.t;
    const id = await insertProjectRow(ctx, { name: "Before the upgrade" });
    for (const shot of SHOTS) await storedBefore(id, shot);
    const unread = () => ctx.db("attachments").where({ project_id: id, captured_at_checked: false }).count({ n: "*" });
    expect(Number((await unread())[0].n)).toBe(SHOTS.length);

    // A batch told to stop (at shutdown) reads no further photo.
    await readCaptureTimes(ctx, 0, 2, () => true);
    expect(Number((await unread())[0].n)).toBe(SHOTS.length);

    // One batch of two, by hand; then the job started as at start reads the rest.
    const last = await readCaptureTimes(ctx, 0, 2);
    expect(last).toBeDefined();
    expect(Number((await unread())[0].n)).toBe(SHOTS.length - 2);
    const stop = backfillCaptureTimes(ctx, 0);
    try {
      await until(
        async () => Number((await unread())[0].n),
        (n) => n === 0,
      );
    } finally {
      await stop();
    }
    const times = await ctx
      .db("attachments")
      .where({ project_id: id })
      .orderBy("id")
      .select("original_name", "captured_at");
    expect(Object.fromEntries(times.map((r) => [r.original_name, r.captured_at]))).toEqual({
      "IMG_10.jpg": null,
      "A_0011.jpg": "2026-06-01T10:45:00.000Z",
      "B_0002.jpg": "2026-06-01T10:30:00.000Z",
      "IMG_2.jpg": null,
      "A_0010.jpg": "2026-06-01T10:00:00.000Z",
      "B_0010.jpg": "2026-06-01T09:50:00.000Z",
    });
    expect(await paged(id)).toEqual(CAPTURED);
    expect(await readCaptureTimes(ctx)).toBeUndefined();
  });
});
