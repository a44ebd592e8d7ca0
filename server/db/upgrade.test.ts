import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import request from "supertest";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { makeNoisyJpeg } from "../attachments/test-fixtures";
import { createApp } from "../app";
import { closeContext, createContext } from "../bootstrap";
import { loadConfig } from "../config";
import type { AppContext } from "../context";
import { createLogger } from "../logger";
import { runStartupTasks } from "../startup";
import { createUser } from "../test/harness";
import { createTestDatabase, type TestDatabase } from "../test/test-database";
import { migrate, openDatabase } from "./database";

/** The newest migration of the release before list totals, name indexes and ZIP sizes. */
const PREVIOUS_RELEASE = "20261124160000_projects_sort_indexes_end_in_id.ts";
const at = (minute: number) => new Date(Date.UTC(2026, 0, 1, 0, minute)).toISOString();

let dir: string;
let database: TestDatabase;
let ctx: AppContext;
let zipBytes: number;

/** A database as the previous release left it: its schema, and rows written the way it wrote them; answers its first photo's storage key. */
async function previousReleaseData(url: string): Promise<string> {
  const db = openDatabase(url);
  try {
    await migrate(db, PREVIOUS_RELEASE);
    const clients = await db("clients").insert(
      ["Famille Lefèvre", "École Sainte-Anne"].map((name, i) => ({ name, created_at: at(i), updated_at: at(i) })),
      ["id"],
    );
    const [a, b] = clients.map((r) => (typeof r === "object" ? r.id : r));
    await db("contacts").insert({ client_id: a, name: "Ann", created_at: at(1), updated_at: at(1) });
    const projects = await db("projects").insert(
      [
        {
          name: "Mariage Lefèvre",
          client_id: a,
          publish_status: "published",
          published_zip_path: "published/kept.zip",
        },
        {
          name: "Portraits Sainte-Anne",
          client_id: b,
          publish_status: "published",
          published_zip_path: "published/gone.zip",
        },
        { name: "Brouillon", client_id: b, publish_status: "draft", published_zip_path: null },
      ].map((p, i) => ({ ...p, created_at: at(10 + i), updated_at: at(10 + i) })),
      ["id"],
    );
    const ids = projects.map((r) => (typeof r === "object" ? r.id : r));
    for (const [i, projectId] of [ids[0], ids[0], ids[1], ids[2], ids[2], ids[2]].entries()) {
      await db("attachments").insert({
        project_id: projectId,
        original_name: `Mariée ${i}.jpg`,
        storage_key: `${projectId}/${i}.jpg`,
        thumbnail_key: i === 5 ? null : `${projectId}/${i}.webp`,
        mime_type: "image/jpeg",
        size: 1000 * (i + 1),
        checksum: "0".repeat(64),
        created_at: at(20 + i),
        updated_at: at(20 + i),
      });
    }
    return `${ids[0]}/0.jpg`;
  } finally {
    await db.destroy();
  }
}

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "photodrop-upgrade-"));
  database = await createTestDatabase(dir);
  const firstPhoto = await previousReleaseData(database.url);
  // That one's file is a real photo: the new release renders its preview at start.
  fs.mkdirSync(path.join(dir, "uploads", path.dirname(firstPhoto)), { recursive: true });
  fs.writeFileSync(path.join(dir, "uploads", firstPhoto), await makeNoisyJpeg(900, 600));
  const published = path.join(dir, "published");
  fs.mkdirSync(published, { recursive: true });
  zipBytes = 12_345;
  fs.writeFileSync(path.join(published, "kept.zip"), Buffer.alloc(zipBytes));
  const config = loadConfig({
    DATABASE_URL: database.url,
    UPLOADS_DIR: path.join(dir, "uploads"),
    PUBLISHED_DIR: published,
    SEED_DEMO: "0",
    LOG_LEVEL: "silent",
  });
  // What the new release does at start: the remaining migrations, then the startup tasks.
  ctx = await createContext(config, createLogger("silent"));
  await runStartupTasks(ctx);
});

afterAll(async () => {
  await closeContext(ctx);
  await database.drop();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe("upgrading the previous release's data", () => {
  it("fills every total, count, index and ZIP size from what was there", async () => {
    const app = createApp(ctx);
    const { auth } = await createUser(ctx);
    const totals = Object.fromEntries(
      (await ctx.db("list_totals").select("name", "total")).map((r) => [r.name, Number(r.total)]),
    );
    expect(totals).toMatchObject({
      clients: 2,
      contacts: 1,
      projects: 3,
      attachments: 6,
      "attachments.size": 21_000,
      // The ZIP on disk counts its bytes; one whose file is gone counts nothing.
      "projects.published_zip_size": zipBytes,
    });
    const clients = await request(app).get("/api/clients?_sort=id&_order=asc").set(auth);
    expect(
      clients.body.map((c: { projectCount: number; contactCount: number }) => [c.projectCount, c.contactCount]),
    ).toEqual([
      [1, 1],
      [2, 0],
    ]);
    const search = await request(app).get("/api/projects?q=lefèvre").set(auth);
    expect(search.body.map((p: { name: string }) => p.name)).toEqual(["Mariage Lefèvre"]);
    expect(search.headers["x-total-count"]).toBe("1");
    const photos = await request(app).get("/api/attachments?q=mariée 5").set(auth);
    expect(photos.body.map((p: { originalName: string }) => p.originalName)).toEqual(["Mariée 5.jpg"]);
    const stats = await request(app).get("/api/dashboard/stats").set(auth);
    expect(stats.body).toMatchObject({ clientCount: 2, projectCount: 3, attachmentCount: 6, totalFileSize: 21_000 });
    expect(stats.body.storage).toMatchObject({ photosBytes: 21_000, zipsBytes: zipBytes });
    // With no cover chosen, each project's cover is its first photo in the ZIP's order.
    const projects = await request(app).get("/api/projects?_sort=id&_order=asc").set(auth);
    const photosInOrder = await ctx.db("attachments").orderBy(["created_at", "id"]).select("id", "project_id");
    const firstPhoto = (projectId: number) => photosInOrder.find((a) => Number(a.project_id) === projectId)?.id;
    expect(projects.body.map((p: { coverAttachmentId: number | null }) => p.coverAttachmentId)).toEqual(
      projects.body.map((p: { id: number }) => firstPhoto(p.id)),
    );
    expect(projects.body.every((p: { coverAttachmentId: number | null }) => p.coverAttachmentId !== null)).toBe(true);
    // The photo stored without its thumbnail is found through the new partial index.
    const waiting = await ctx.db("attachments").whereNull("thumbnail_key").pluck("original_name");
    expect(waiting).toEqual(["Mariée 5.jpg"]);
  });

  it("renders in idle time the preview of a photo stored before previews existed", async () => {
    const photo = await ctx.db("attachments").where({ original_name: "Mariée 0.jpg" }).first("id", "preview_key");
    await vi.waitFor(
      async () =>
        expect((await ctx.db("attachments").where({ id: photo.id }).first("preview_key")).preview_key).toMatch(
          /\.preview\.jpg$/,
        ),
      { timeout: 15_000, interval: 100 },
    );
  });
});
