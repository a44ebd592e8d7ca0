import { spawn } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import sharp from "sharp";
import request from "supertest";
import { Readable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Attachment } from "../../api/types";
import { createApp } from "../app";
import { closeContext, createContext } from "../bootstrap";
import { loadConfig } from "../config";
import { createLogger } from "../logger";
import { readAll } from "../storage/object-store";
import { storesOf } from "../storage/stores";
import { createTestApp, createUser, type TestApp, type TestUser } from "../test/harness";
import { insertProjectRow } from "../test/rows";
import { getBinary } from "../test/binary-body";
import { startS3Server, type TestS3Server } from "../test/s3-server";
import { createBackup } from "./backup";
import { readManifest } from "./manifest";
import { restoreBackup } from "./restore";

const root = path.resolve(import.meta.dirname, "../..");
let s3: TestS3Server;
let s3Env: Record<string, string>;
let scratch: string;
let t: TestApp;
let user: TestUser;

beforeAll(async () => {
  s3 = await startS3Server();
  s3Env = s3.env(`backup-${crypto.randomBytes(6).toString("hex")}`);
  scratch = fs.mkdtempSync(path.join(os.tmpdir(), "photodrop-object-backup-"));
  t = await createTestApp(s3Env, { sqliteOnly: true });
  user = await createUser(t.ctx);
});
afterAll(async () => {
  await t?.close();
  await s3?.stop();
  fs.rmSync(scratch, { recursive: true, force: true });
});

const sha256 = (bytes: Buffer) => crypto.createHash("sha256").update(bytes).digest("hex");

async function uploadPhotos(count: number): Promise<Map<number, Buffer>> {
  const projectId = await insertProjectRow(t.ctx, { name: `Shoot ${crypto.randomBytes(3).toString("hex")}` });
  const sent = new Map<number, Buffer>();
  for (let i = 0; i < count; i++) {
    const bytes = await sharp({
      create: { width: 40 + i, height: 30, channels: 3, background: { r: i, g: 80, b: 160 } },
    })
      .jpeg()
      .toBuffer();
    const res = await request(t.app)
      .post(`/api/attachments/projects/${projectId}/upload`)
      .set(user.auth)
      .attach("file", bytes, `photo-${i}.jpg`);
    expect(res.status).toBe(201);
    sent.set(res.body.id as number, bytes);
  }
  return sent;
}

/** A fresh database in the same bucket: where a restore goes. */
const freshDatabase = (name: string): Record<string, string> => ({
  ...s3Env,
  DATABASE_URL: path.join(scratch, `${name}.sqlite3`),
  UPLOADS_DIR: path.join(scratch, `${name}-uploads`),
  SEED_DEMO: "0",
  LOG_LEVEL: "silent",
});

function cli(args: string[], env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  const child = spawn(process.execPath, ["--import", "tsx", "server/backup/backup-cli.ts", ...args], {
    cwd: root,
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", ...env },
  });
  let output = "";
  child.stdout.on("data", (d: Buffer) => (output += d.toString()));
  child.stderr.on("data", (d: Buffer) => (output += d.toString()));
  return new Promise((resolve) => child.once("close", (code) => resolve({ code, output })));
}

describe("backup and restore with object storage", () => {
  it("backs up the database and a manifest of every object it names with the object's SHA-256, and restores the database over the same objects", async () => {
    const sent = await uploadPhotos(3);
    const folder = path.join(scratch, "backup");

    const summary = await createBackup(t.ctx.config, folder);

    expect(summary.method).toBe("listed");
    expect(fs.readdirSync(folder).sort()).toEqual(["database.sqlite3", "manifest.json"]);
    const manifest = await readManifest(folder);
    expect(manifest.objectStorage?.url).toBe(`${s3Env.STORAGE_URL}/`);
    // Thumbnails and previews are listed once rendered (the restored server renders any missing).
    const store = storesOf(t.ctx.config).uploads;
    for (const file of manifest.files)
      expect(sha256(await readAll(await store.get(file.path.slice("uploads/".length))))).toBe(file.sha256);
    const originals = new Set([...sent.values()].map(sha256));
    expect(manifest.files.filter((f) => originals.has(f.sha256))).toHaveLength(sent.size);
    expect(summary.files).toBe(manifest.files.length);

    const place = freshDatabase("restored");
    const restored = await cli(["restore", folder], place);
    expect(restored.output).toMatch(/Restored the database from .*; its \d+ objects .* are in the bucket/);
    expect(restored.code).toBe(0);
    const ctx = await createContext(loadConfig(place), createLogger("silent"));
    try {
      const app = createApp(ctx);
      for (const [id, bytes] of sent) {
        const attachment = (await request(app).get(`/api/attachments/${id}`).set(user.auth)).body as Attachment;
        const file = await getBinary(app, attachment.downloadUrl);
        expect(file.status).toBe(200);
        expect((file.body as Buffer).equals(bytes)).toBe(true);
      }
    } finally {
      await closeContext(ctx);
    }
  });

  it("refuses --with-zips, and a backup of objects restored without STORAGE_URL", async () => {
    await expect(createBackup(t.ctx.config, path.join(scratch, "zips"), { withZips: true })).rejects.toThrow(
      /--with-zips: a backup in object storage does not carry the published ZIPs/,
    );
    const folder = path.join(scratch, "for-disk");
    await createBackup(t.ctx.config, folder);
    const { STORAGE_URL: _url, ...onDisk } = freshDatabase("on-disk");
    await expect(restoreBackup(loadConfig(onDisk), folder)).rejects.toThrow(
      /The backup's photos are objects in s3:\/\/.*: set STORAGE_URL/,
    );
  });
  it("refuses to restore when an object the manifest lists is gone or changed, writing no database", async () => {
    await uploadPhotos(2);
    const folder = path.join(scratch, "backup-then-lost");
    const backedUp = await cli(["backup", folder], {
      ...s3Env,
      DATABASE_URL: t.ctx.config.databaseUrl,
      UPLOADS_DIR: t.ctx.config.uploadsDir,
    });
    expect(backedUp.output).toMatch(/Backed up the database and a manifest of \d+ objects .* left in the bucket/);
    expect(backedUp.code).toBe(0);
    const [lost, changed] = (await readManifest(folder)).files;
    const store = storesOf(t.ctx.config).uploads;
    await store.remove(lost.path.slice("uploads/".length));
    const other = crypto.randomBytes(changed.size);
    await store.put(changed.path.slice("uploads/".length), Readable.from([other]));

    const place = freshDatabase("refused");
    await expect(restoreBackup(loadConfig(place), folder)).rejects.toThrow(
      new RegExp(
        `not in the bucket as they were.*\\n  ${lost.path}: missing from the bucket\\n  ${changed.path}: checksum does not match`,
      ),
    );
    expect(fs.existsSync(place.DATABASE_URL)).toBe(false);
    await expect(createBackup(t.ctx.config, path.join(scratch, "after-loss"))).rejects.toThrow(
      `${lost.path} is not in the bucket, though the database names it`,
    );
  });
});
