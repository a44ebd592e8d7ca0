import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import sharp from "sharp";
import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../app";
import { closeContext, createContext } from "../bootstrap";
import { loadConfig } from "../config";
import { createLogger } from "../logger";
import { filesUnder } from "../test/stored-files";
import { createTestApp, createUser, type TestApp, type TestUser } from "../test/harness";
import { insertProjectRow } from "../test/rows";
import { until } from "../test/wait";
import type { Attachment } from "../../api/types";
import { getBinary } from "../test/binary-body";

const root = path.resolve(import.meta.dirname, "../..");
const tsx = path.join(root, "node_modules/.bin/tsx");
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "photodrop-backup-"));
let t: TestApp;
let user: TestUser;

beforeAll(async () => {
  // The backup's database part exists for sqlite only (a PostgreSQL one, pg_dump/pg_restore, is
  // not built yet), so this runs on sqlite in the PostgreSQL suite too.
  t = await createTestApp({}, { sqliteOnly: true });
  user = await createUser(t.ctx);
});
afterAll(async () => {
  await t.close();
  fs.rmSync(scratch, { recursive: true, force: true });
});

interface Place {
  DATABASE_URL: string;
  UPLOADS_DIR: string;
  PUBLISHED_DIR: string;
}

const livePlace = (): Place => ({
  DATABASE_URL: t.ctx.config.databaseUrl,
  UPLOADS_DIR: t.ctx.config.uploadsDir,
  PUBLISHED_DIR: t.ctx.config.publishedDir,
});

function freshPlace(name: string): Place {
  const dir = path.join(scratch, name);
  return {
    DATABASE_URL: path.join(dir, "db.sqlite3"),
    UPLOADS_DIR: path.join(dir, "uploads"),
    PUBLISHED_DIR: path.join(dir, "published"),
  };
}

/** The real command, in a process of its own, as `npm run backup` / `npm run restore` run it. */
function cli(args: string[], place: Place): Promise<{ code: number | null; output: string }> {
  const child = spawn(tsx, ["server/backup/backup-cli.ts", ...args], {
    cwd: root,
    env: { PATH: process.env.PATH, ...place },
  });
  let output = "";
  child.stdout.on("data", (d) => (output += d));
  child.stderr.on("data", (d) => (output += d));
  return new Promise((resolve) => child.on("exit", (code) => resolve({ code, output })));
}

let imageCount = 0;
/** A distinct small JPEG each time. */
async function nextImage(): Promise<Buffer> {
  const n = imageCount++;
  return sharp({
    create: { width: 48 + (n % 7), height: 32, channels: 3, background: { r: n % 256, g: (n * 7) % 256, b: 90 } },
  })
    .jpeg()
    .toBuffer();
}

async function upload(projectId: number, bytes: Buffer) {
  return request(t.app)
    .post(`/api/attachments/projects/${projectId}/upload`)
    .set(user.auth)
    .attach("file", bytes, `photo-${imageCount}.jpg`);
}

/** A server over a restored place, with the same signing key, so the same token works. */
async function serverOver(place: Place) {
  const config = loadConfig({ ...place, SEED_DEMO: "0", LOG_LEVEL: "silent" });
  const ctx = await createContext(config, createLogger("silent"));
  return { app: createApp(ctx), ctx, close: () => closeContext(ctx) };
}

describe("backup and restore", () => {
  it("takes a backup while uploads are in flight (all answered 201) that restores byte-identical into a fresh place and server", async () => {
    const projectId = await insertProjectRow(t.ctx, { name: "Busy day" });
    const sent = new Map<number, { bytes: Buffer; answeredAt: number }>();
    for (let i = 0; i < 4; i++) {
      const bytes = await nextImage();
      const res = await upload(projectId, bytes);
      expect(res.status).toBe(201);
      sent.set(res.body.id, { bytes, answeredAt: Date.now() });
    }
    const doomed = [...sent.keys()].slice(0, 2);

    let running = true;
    const statuses: number[] = [];
    const uploader = async () => {
      while (running) {
        const bytes = await nextImage();
        const res = await upload(projectId, bytes);
        statuses.push(res.status);
        if (res.status === 201) sent.set(res.body.id, { bytes, answeredAt: Date.now() });
      }
    };
    const folder = path.join(scratch, "busy-backup");
    const backupStarted = Date.now();
    let backupEnded = false;
    const backup = cli(["backup", folder], livePlace()).finally(() => (backupEnded = true));
    const uploaders = [uploader(), uploader()];
    const sizeIn = (file: string) => fs.statSync(path.join(folder, file), { throwIfNoEntry: false })?.size ?? -1;
    /** Waits until the backup has got as far as `file` in its folder holding more than `bytes`, or has ended. */
    const reached = (file: string, bytes = -1) => until(() => backupEnded || sizeIn(file) > bytes, Boolean, 120_000);
    // Deleted while the backup runs: one as it takes the files, before its database moment; one once
    // the database copy is being written, after it. Either way the backup stays whole.
    const deletes = (async () => {
      for (const [id, progress] of [
        [doomed[0], () => reached("uploads")],
        [doomed[1], () => reached("database.sqlite3", 0)],
      ] as const) {
        await progress();
        statuses.push((await request(t.app).delete(`/api/attachments/${id}`).set(user.auth)).status);
      }
    })();
    const result = await backup;
    running = false;
    await Promise.all([...uploaders, deletes]);

    expect(result.output).toMatch(/Backed up the database and \d+ files/);
    expect(result.code).toBe(0);
    expect(statuses.length).toBeGreaterThan(4);
    expect(statuses.filter((s) => s !== 201 && s !== 204)).toEqual([]);

    const fresh = freshPlace("busy-restore");
    const restored = await cli(["restore", folder], fresh);
    expect(restored.output).toMatch(/Restored the database and \d+ files/);
    expect(restored.code).toBe(0);

    const server = await serverOver(fresh);
    try {
      const listed = await request(server.app)
        .get(`/api/attachments?projectId=${projectId}&_start=0&_end=1000`)
        .set(user.auth);
      expect(listed.status).toBe(200);
      const attachments = listed.body as Attachment[];
      const ids = new Set(attachments.map((a) => a.id));
      // Everything answered before the backup began and not deleted is there; nothing that was never answered 201 is.
      for (const [id, { answeredAt }] of sent)
        if (answeredAt < backupStarted && !doomed.includes(id)) expect(ids.has(id)).toBe(true);
      for (const a of attachments) {
        expect(sent.has(a.id)).toBe(true);
        const file = await getBinary(server.app, a.downloadUrl);
        expect(file.status).toBe(200);
        expect(Buffer.compare(file.body as Buffer, sent.get(a.id)!.bytes)).toBe(0);
      }
      // The restored database lists exactly the files restored, thumbnails and previews included (those not
      // rendered yet are rendered by the restored server).
      const rows = (await server.ctx.db("attachments").select("storage_key", "thumbnail_key", "preview_key")) as Array<{
        storage_key: string;
        thumbnail_key: string | null;
        preview_key: string | null;
      }>;
      const keys = rows
        .flatMap((r) => [r.storage_key, r.thumbnail_key, r.preview_key].filter((k) => k !== null))
        .sort();
      expect(filesUnder(fresh.UPLOADS_DIR).filter((f) => !f.startsWith("."))).toEqual(keys);
      expect(filesUnder(path.join(folder, "uploads"))).toEqual(keys);
    } finally {
      await server.close();
    }
  }, 120_000);

  it("refuses a tampered backup before writing anything, and a place that is not empty", async () => {
    const projectId = await insertProjectRow(t.ctx, { name: "Small" });
    expect((await upload(projectId, await nextImage())).status).toBe(201);
    const folder = path.join(scratch, "to-tamper");
    expect((await cli(["backup", folder], livePlace())).code).toBe(0);
    expect((await cli(["backup", folder], livePlace())).output).toContain("is not empty");

    const manifest = JSON.parse(fs.readFileSync(path.join(folder, "manifest.json"), "utf8"));
    const victim = path.join(folder, manifest.files.at(-1).path);
    const original = fs.readFileSync(victim);
    const tampered = Buffer.from(original);
    tampered[tampered.length >> 1] ^= 0xff;
    fs.rmSync(victim); // a hard link shares the live file: replace it, never write through it
    fs.writeFileSync(victim, tampered);

    const fresh = freshPlace("tampered-restore");
    const refused = await cli(["restore", folder], fresh);
    expect(refused.code).toBe(1);
    expect(refused.output).toContain("The backup is damaged; nothing was restored");
    expect(refused.output).toContain(`${manifest.files.at(-1).path}: checksum does not match`);
    expect(fs.existsSync(fresh.DATABASE_URL)).toBe(false);
    expect(filesUnder(path.dirname(fresh.UPLOADS_DIR))).toEqual([]);

    // A manifest naming a path outside the backup is no manifest.
    const escaping = { ...manifest, files: [{ ...manifest.files[0], path: "uploads/../../etc/passwd" }] };
    fs.writeFileSync(path.join(folder, "manifest.json"), JSON.stringify(escaping));
    const outside = await cli(["restore", folder], fresh);
    expect(outside.code).toBe(1);
    expect(outside.output).toContain("not a Photodrop backup manifest");

    // Into the live place, which is not empty.
    fs.writeFileSync(path.join(folder, "manifest.json"), JSON.stringify(manifest));
    fs.rmSync(victim);
    fs.writeFileSync(victim, original);
    const occupied = await cli(["restore", folder], livePlace());
    expect(occupied.code).toBe(1);
    expect(occupied.output).toMatch(/already exists; restore only into a new, empty place/);
  }, 120_000);

  it("carries published ZIPs (and web-size ZIPs) with --with-zips; without, restored projects can be published again", async () => {
    const projectId = await insertProjectRow(t.ctx, { name: "Delivered" });
    expect((await upload(projectId, await nextImage())).status).toBe(201);
    await request(t.app)
      .put(`/api/projects/${projectId}/delivery`)
      .set(user.auth)
      .send({ offerWebSize: true })
      .expect(200);
    expect((await request(t.app).post(`/api/projects/${projectId}/publish`).set(user.auth)).status).toBe(202);
    const published = await until(
      () => request(t.app).get(`/api/projects/${projectId}`).set(user.auth),
      (res) => res.body.publishStatus === "published",
    );
    const zipName = path.basename(published.body.publishedZipPath);
    const zip = fs.readFileSync(path.join(t.ctx.config.publishedDir, zipName));
    const webZipName = zipName.replace(/\.zip$/, "-web.zip");
    const webZip = fs.readFileSync(path.join(t.ctx.config.publishedDir, webZipName));

    const withZips = path.join(scratch, "with-zips");
    expect((await cli(["backup", withZips, "--with-zips"], livePlace())).code).toBe(0);
    const placeA = freshPlace("with-zips-restore");
    expect((await cli(["restore", withZips], placeA)).code).toBe(0);
    expect(Buffer.compare(fs.readFileSync(path.join(placeA.PUBLISHED_DIR, zipName)), zip)).toBe(0);
    expect(Buffer.compare(fs.readFileSync(path.join(placeA.PUBLISHED_DIR, webZipName)), webZip)).toBe(0);

    const without = path.join(scratch, "without-zips");
    expect((await cli(["backup", without], livePlace())).code).toBe(0);
    expect(fs.existsSync(path.join(without, "published"))).toBe(false);
    const placeB = freshPlace("without-zips-restore");
    expect((await cli(["restore", without], placeB)).code).toBe(0);
    const server = await serverOver(placeB);
    try {
      const project = await request(server.app).get(`/api/projects/${projectId}`).set(user.auth);
      // The link is kept: the client's page says the gallery is being updated until it is published again.
      expect(project.body).toMatchObject({
        publishStatus: "failed",
        publishedZipPath: published.body.publishedZipPath,
      });
      expect(project.body.publishError).toMatch(/publish again/);
      const token = zipName.replace(/\.zip$/, "");
      const page = await request(server.app).get(`/d/${token}`);
      expect(page.status).toBe(503);
      expect((await request(server.app).get(`/published/${zipName}`)).status).toBe(503);
    } finally {
      await server.close();
    }
  }, 120_000);
});
