import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../config";
import { closeContext, createContext } from "../bootstrap";
import { createBackup } from "../backup/backup";
import { openDatabase } from "../db/database";
import { makeImage, makeNoisyJpeg } from "../attachments/test-fixtures";
import { recordPublishEvents } from "../publish/test-fixtures";
import { runStartupTasks } from "../startup";
import { createTestApp, createUser, type TestApp } from "../test/harness";
import { insertProjectRow } from "../test/rows";
import { startS3Server } from "../test/s3-server";
import { until } from "../test/wait";
import { groupId } from "./file-modes";
import { entriesUnder, wrongModes, type Entry } from "./modes-walk";

// As most systems start a service: group and others may read what a library makes without a mode.
let umask: number;
beforeAll(() => {
  umask = process.umask(0o022);
});
afterAll(() => {
  process.umask(umask);
});

const PRIVATE = { file: 0o600, folder: 0o700 };

/** A group the test may hand files to other than its own: www-data as root, else a supplementary one. */
function otherGroup(): { name: string; gid: number } {
  if (process.geteuid?.() === 0) {
    const gid = groupId("www-data") ?? groupId("nogroup") ?? 1;
    return { name: String(gid), gid };
  }
  const gid = process.getgroups?.().find((g) => g !== process.getegid?.()) ?? process.getegid!();
  return { name: String(gid), gid };
}

/**
 * A photo and a PNG uploaded through the API (received by express-fileupload, thumbnails and
 * previews rendered), a logo, a publish with the web-size ZIP, and a backup with the ZIPs.
 */
async function writeEverything(t: TestApp) {
  const admin = await createUser(t.ctx, { role: "admin" });
  const id = await insertProjectRow(t.ctx, { name: "Modes" });
  expect(
    (await request(t.app).put(`/api/projects/${id}/delivery`).set(admin.auth).send({ offerWebSize: true })).status,
  ).toBe(200);
  for (const [name, bytes] of [
    ["noisy.jpg", await makeNoisyJpeg(900, 600)],
    ["flat.png", await makeImage("png", 700, 500)],
  ] as const) {
    const upload = await request(t.app)
      .post(`/api/attachments/projects/${id}/upload`)
      .set(admin.auth)
      .attach("file", bytes, name);
    expect(upload.status).toBe(201);
  }
  const logo = await request(t.app)
    .put("/api/studio/logo")
    .set(admin.auth)
    .set("Content-Type", "image/png")
    .send(await makeImage("png", 300, 100));
  expect(logo.status).toBe(200);
  const events = recordPublishEvents(t.ctx, id);
  expect((await request(t.app).post(`/api/projects/${id}/publish`).set(admin.auth)).status).toBe(202);
  await events.next("publish_completed", 60_000);
  events.stop();
  await until(
    () => t.ctx.db("attachments").where({ project_id: id }).select("thumbnail_key", "preview_key"),
    (rows) => rows.every((r) => r.thumbnail_key && r.preview_key),
    30_000,
  );
  if (t.ctx.config.storage.kind === "disk")
    await createBackup(t.ctx.config, path.join(t.dir, "backup"), { withZips: true });
  return { admin };
}

/**
 * An upload left half sent, its temp file in UPLOADS_DIR/.tmp; `look` runs while it is there,
 * then the client hangs up.
 */
async function whileUploading<T>(t: TestApp, auth: Record<string, string>, look: () => T): Promise<T> {
  const id = await insertProjectRow(t.ctx, { name: "Still receiving" });
  const server = http.createServer(t.app);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const req = http.request({
    port: (server.address() as AddressInfo).port,
    host: "127.0.0.1",
    method: "POST",
    path: `/api/attachments/projects/${id}/upload`,
    headers: { ...auth, "Content-Type": "multipart/form-data; boundary=XyZ", "Content-Length": String(1 << 20) },
  });
  req.on("error", () => undefined);
  req.write('--XyZ\r\nContent-Disposition: form-data; name="file"; filename="half.jpg"\r\n');
  req.write("Content-Type: image/jpeg\r\n\r\n");
  req.write(Buffer.alloc(64 * 1024, 7));
  const temp = path.join(t.ctx.config.uploadsDir, ".tmp");
  try {
    await until(
      () => (fs.existsSync(temp) ? fs.readdirSync(temp, { recursive: true }).length : 0),
      (n) => n >= 2,
    );
    return look();
  } finally {
    req.destroy();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
}

const named = (entries: Entry[], pattern: RegExp) => entries.filter((e) => pattern.test(e.path));

describe("the files and folders the service writes, under umask 022", () => {
  let t: TestApp;
  afterAll(() => t?.close());

  it("are its user's only: the database and its WAL, photos, thumbnails, previews, the logo, both ZIPs, the backup and an upload's temp file", async () => {
    t = await createTestApp({}, { sqliteOnly: true });
    const { admin } = await writeEverything(t);
    const entries = await whileUploading(t, admin.auth, () => entriesUnder(t.dir));

    for (const [what, pattern] of [
      ["database", /\/db\.sqlite3$/],
      ["WAL", /\/db\.sqlite3-wal$/],
      ["shared memory", /\/db\.sqlite3-shm$/],
      ["photo", /\/uploads\/\d+\/[0-9a-f]+\.jpg$/],
      ["thumbnail", /\/uploads\/\d+\/.*\.thumb\.webp$/],
      ["preview", /\/uploads\/\d+\/.*\.preview\.jpg$/],
      ["logo", /\/uploads\/studio\/[0-9a-f]{32}\.webp$/],
      ["ZIP", /\/published\/[\w-]{22}\.zip$/],
      ["web-size ZIP", /\/published\/[\w-]{22}-web\.zip$/],
      ["backup manifest", /\/backup\/manifest\.json$/],
      ["backed-up database", /\/backup\/database\.sqlite3$/],
      ["backed-up photo", /\/backup\/uploads\/\d+\/[0-9a-f]+\.jpg$/],
      ["upload temp file", /\/uploads\/\.tmp\/[0-9a-f]{24}\/tmp-/],
    ] as const)
      expect(named(entries, pattern).length, what).toBeGreaterThan(0);
    expect(wrongModes(entries, PRIVATE)).toEqual([]);
  });
});

describe("with DATA_GROUP, under umask 022", () => {
  let t: TestApp;
  afterAll(() => t?.close());

  it("gives the group read access to the data folders' files and folders, nothing more; the database, backup and temp files stay private", async () => {
    const group = otherGroup();
    t = await createTestApp({ DATA_GROUP: group.name }, { sqliteOnly: true });
    const { admin } = await writeEverything(t);
    const entries = await whileUploading(t, admin.auth, () => entriesUnder(t.dir));
    const { uploadsDir, publishedDir } = t.ctx.config;
    const temp = path.join(uploadsDir, ".tmp");
    const data = entries.filter(
      (e) => (e.path.startsWith(uploadsDir) || e.path.startsWith(publishedDir)) && !e.path.startsWith(temp),
    );
    expect(named(data, /\.(jpg|webp|zip)$/).length).toBeGreaterThanOrEqual(7);
    expect(wrongModes(data, { file: 0o640, folder: 0o750, gid: group.gid })).toEqual([]);

    const backup = path.join(t.dir, "backup");
    const rest = entries.filter((e) => !data.includes(e));
    expect(named(rest, /\/\.tmp\/[0-9a-f]{24}\/tmp-/).length).toBe(1);
    // A backup on the same disk hard-links the photos and ZIPs: the same files, inside the backup's 0700 folders.
    const linked = rest.filter((e) => /^\/(uploads|published)\//.test(e.path.slice(backup.length)) && !e.folder);
    expect(linked.length).toBeGreaterThan(0);
    expect(wrongModes(linked, { file: 0o640, folder: 0o700 })).toEqual([]);
    expect(
      wrongModes(
        rest.filter((e) => !linked.includes(e)),
        PRIVATE,
      ),
    ).toEqual([]);
  });
});

describe("an install whose files a umask of 022 left readable", () => {
  it("is tightened at start: the folders and the database at once, every file in the background", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "photodrop-modes-"));
    const env = {
      DATABASE_URL: path.join(dir, "data", "photodrop.sqlite3"),
      UPLOADS_DIR: path.join(dir, "data", "uploads"),
      PUBLISHED_DIR: path.join(dir, "data", "published"),
      SEED_DEMO: "0",
      LOG_LEVEL: "silent",
    };
    const old = openDatabase(env.DATABASE_URL);
    await old.raw("CREATE TABLE kept (x)");
    await old.destroy();
    const files = ["uploads/4/photo.jpg", "uploads/4/photo.thumb.webp", "uploads/.tmp/abc/left", "published/z.zip"];
    for (const file of files) {
      fs.mkdirSync(path.dirname(path.join(dir, "data", file)), { recursive: true, mode: 0o755 });
      fs.writeFileSync(path.join(dir, "data", file), "x", { mode: 0o644 });
    }
    fs.writeFileSync(`${env.DATABASE_URL}-wal`, "", { mode: 0o644 });
    for (const entry of entriesUnder(path.join(dir, "data"))) fs.chmodSync(entry.path, entry.folder ? 0o755 : 0o644);

    const config = loadConfig(env);
    const ctx = await createContext(config);
    try {
      const atOnce = entriesUnder(path.join(dir, "data"));
      const mode = (relative: string) => atOnce.find((e) => e.path === path.join(dir, "data", relative))!.mode;
      expect([mode("photodrop.sqlite3"), mode("photodrop.sqlite3-wal")]).toEqual([0o600, 0o600]);
      expect([mode("uploads"), mode("published")]).toEqual([0o700, 0o700]);

      const report = await runStartupTasks(ctx);
      const summary = await report.fileModes;
      expect(summary).toMatchObject({ changed: 7, failed: 0 });
      // The data folder holding them all was made by the test: only what the service owns is set.
      expect(wrongModes(entriesUnder(config.uploadsDir), PRIVATE)).toEqual([]);
      expect(wrongModes(entriesUnder(config.publishedDir), PRIVATE)).toEqual([]);

      // Once right, a start only looks: nothing is written again.
      expect(await (await runStartupTasks(ctx)).fileModes).toMatchObject({ changed: 0, seen: summary.seen });
    } finally {
      await closeContext(ctx);
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("in object storage, under umask 022", () => {
  it("keeps the local files (uploads being received, copies fetched to render) its user's only", async () => {
    const s3 = await startS3Server();
    const t = await createTestApp(s3.env("modes/"), { sqliteOnly: true });
    try {
      const { admin } = await writeEverything(t);
      const entries = await whileUploading(t, admin.auth, () => entriesUnder(t.dir));
      expect(named(entries, /\/uploads\/\.tmp\/[0-9a-f]{24}\/tmp-/).length).toBe(1);
      expect(wrongModes(entries, PRIVATE)).toEqual([]);
    } finally {
      await t.close();
      await s3.stop();
    }
  }, 60_000);
});
