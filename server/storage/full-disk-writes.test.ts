import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import sharp from "sharp";
import request from "supertest";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { makeNoisyJpeg } from "../attachments/test-fixtures";
import { renditionQueue } from "../attachments/renditions.service";
import { createBackup } from "../backup/backup";
import { BackupError } from "../backup/backup-error";
import { restoreBackup } from "../backup/restore";
import { loadConfig } from "../config";
import { DISK_FULL } from "../http/errors";
import { createTestApp, createUser, type TestApp } from "../test/harness";
import { insertProjectRow } from "../test/rows";
import { mountSmallDisk, type SmallDisk } from "../test/small-disk";
import { until } from "../test/wait";

/** Every other write that can find the disk full: thumbnails and previews, the database on sqlite, backups and restores. */
let base: string;
const disks: SmallDisk[] = [];
const apps: TestApp[] = [];

beforeAll(() => {
  base = fs.mkdtempSync(path.join(os.tmpdir(), "photodrop-full-writes-"));
});
afterEach(async () => {
  await Promise.all(apps.splice(0).map((t) => t.close()));
  for (const disk of disks.splice(0)) disk.unmount();
});
afterAll(() => fs.rmSync(base, { recursive: true, force: true }));

function smallDisk(name: string, megabytes: number): SmallDisk {
  const disk = mountSmallDisk(path.join(base, name), megabytes);
  disks.push(disk);
  return disk;
}

async function appOn(env: Record<string, string>, opts: { sqliteOnly?: boolean } = {}) {
  const t = await createTestApp(env, opts);
  apps.push(t);
  return { t, staff: await createUser(t.ctx) };
}

const onDisk = (disk: SmallDisk) => ({
  UPLOADS_DIR: path.join(disk.dir, "uploads"),
  PUBLISHED_DIR: path.join(disk.dir, "published"),
});

const noisyPng = (width: number, height: number) =>
  sharp({
    create: { width, height, channels: 3, background: "#808080", noise: { type: "gaussian", mean: 128, sigma: 40 } },
  })
    .png()
    .toBuffer();

describe("a disk too full for a thumbnail or a preview", () => {
  it("answers an upload whose thumbnail does not fit with 507, not 'damaged', and keeps nothing", async () => {
    const disk = smallDisk("thumb-upload", 8);
    const { t, staff } = await appOn(onDisk(disk));
    const projectId = await insertProjectRow(t.ctx, { name: "Tight" });
    const png = await noisyPng(700, 500);
    // Room for the received file and the multipart parts around it, not for its thumbnail.
    disk.fill(png.length + 12 * 1024);
    const res = await request(t.app)
      .post(`/api/attachments/projects/${projectId}/upload`)
      .set(staff.auth)
      .attach("file", png, "tight.png");
    expect(res.status, JSON.stringify(res.body)).toBe(507);
    expect(res.body.message).toBe(DISK_FULL);
    expect(await t.ctx.db("attachments").where({ project_id: projectId })).toEqual([]);
    await until(
      () => fs.readdirSync(path.join(t.ctx.config.uploadsDir, ".tmp")),
      (left) => left.length === 0,
    );
  });

  it.each([
    ["thumbnail", "image/webp"],
    ["preview", "image/jpeg"],
  ])(
    "answers a %s asked for on a full disk with 507, and renders it once there is room again",
    async (rendition, type) => {
      const disk = smallDisk(`${rendition}-later`, 8);
      const { t, staff } = await appOn(onDisk(disk));
      const projectId = await insertProjectRow(t.ctx, { name: "Later" });
      // Background rendering waits while an upload is under way: the rendition is left to be asked for.
      const uploadsDone = renditionQueue(t.ctx).uploadStarted();
      try {
        const upload = await request(t.app)
          .post(`/api/attachments/projects/${projectId}/upload`)
          .set(staff.auth)
          .attach("file", await makeNoisyJpeg(1200, 900), "later.jpg");
        expect(upload.status).toBe(201);
        const filler = disk.fill();
        const asked = () => request(t.app).get(`/api/attachments/${upload.body.id}/${rendition}`).set(staff.auth);
        const full = await asked();
        expect(full.status).toBe(507);
        expect(full.body).toEqual({ statusCode: 507, message: DISK_FULL });
        expect(fs.readdirSync(path.join(t.ctx.config.uploadsDir, ".tmp"))).toEqual([]);
        fs.rmSync(filler);
        const rendered = await asked();
        expect(rendered.status).toBe(200);
        expect(rendered.headers["content-type"]).toBe(type);
      } finally {
        uploadsDone();
      }
    },
  );
});

describe("the sqlite database on a full disk", () => {
  it("answers a save with 507 and writes nothing, then saves once there is room", async () => {
    const disk = smallDisk("database", 8);
    const { t, staff } = await appOn({ DATABASE_URL: path.join(disk.dir, "photodrop.sqlite3") }, { sqliteOnly: true });
    const filler = disk.fill();
    const refused = await request(t.app).post("/api/clients").set(staff.auth).send({ name: "No Room Studio" });
    expect(refused.status).toBe(507);
    expect(refused.body).toEqual({ statusCode: 507, message: DISK_FULL });
    expect(await t.ctx.db("clients")).toEqual([]);
    fs.rmSync(filler);
    expect((await request(t.app).post("/api/clients").set(staff.auth).send({ name: "Room Again" })).status).toBe(201);
  });
});

describe("backups and restores on a full disk", () => {
  async function appWithPhotos() {
    const { t, staff } = await appOn({}, { sqliteOnly: true });
    const projectId = await insertProjectRow(t.ctx, { name: "Backed Up" });
    for (let i = 0; i < 4; i++) {
      const res = await request(t.app)
        .post(`/api/attachments/projects/${projectId}/upload`)
        .set(staff.auth)
        .attach("file", await makeNoisyJpeg(1000 + i, 800), `photo-${i}.jpg`);
      expect(res.status).toBe(201);
    }
    return t;
  }

  it("stops a backup that does not fit with a message naming the disk, and keeps nothing of it", async () => {
    const t = await appWithPhotos();
    const folder = path.join(smallDisk("backup", 1).dir, "2026-11-25");
    const backup = createBackup(t.ctx.config, folder);
    await expect(backup).rejects.toThrow(BackupError);
    await expect(backup).rejects.toThrow(`The disk holding ${folder} is full: nothing of the backup was kept.`);
    expect(fs.readdirSync(folder)).toEqual([]);
  });

  it("undoes a restore that does not fit, so it can be run again elsewhere", async () => {
    const t = await appWithPhotos();
    const folder = path.join(base, "restore-source");
    await createBackup(t.ctx.config, folder);
    const target = smallDisk("restore", 1);
    const config = loadConfig({
      DATABASE_URL: path.join(base, "restored.sqlite3"),
      UPLOADS_DIR: path.join(target.dir, "uploads"),
      PUBLISHED_DIR: path.join(target.dir, "published"),
    });
    await expect(restoreBackup(config, folder)).rejects.toThrow("is full: nothing was restored.");
    expect(fs.readdirSync(config.uploadsDir)).toEqual([]);
    expect(fs.existsSync(config.databaseUrl)).toBe(false);
  });
});
