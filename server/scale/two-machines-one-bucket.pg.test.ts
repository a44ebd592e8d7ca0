import { execFileSync } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bearer, RELAXED_LIMITS, signUp, type SessionBody } from "../auth/auth-test-helpers";
import { makeNoisyJpeg } from "../attachments/test-fixtures";
import { getBinary } from "../test/binary-body";
import { dataFolders, startAppProcess, type AppProcess } from "../test/app-process";
import { startS3Server, type TestS3Server } from "../test/s3-server";
import { createTestDatabase, type TestDatabase } from "../test/test-database";
import { until } from "../test/wait";

/**
 * Two real Photodrop processes as two machines would run them: one PostgreSQL database, one
 * bucket, and each its own working folder, shared with nobody. A photo uploaded through one is
 * viewed, downloaded, published, its ZIP downloaded and deleted through the other.
 */
let s3: TestS3Server;
let database: TestDatabase;
let a: AppProcess;
let b: AppProcess;
let admin: SessionBody;
const folders: string[] = [];

beforeAll(async () => {
  s3 = await startS3Server();
  const base = fs.mkdtempSync(path.join(os.tmpdir(), "photodrop-two-machines-"));
  folders.push(base);
  database = await createTestDatabase(base);
  const shared = {
    ...RELAXED_LIMITS,
    ...s3.env(`two-machines-${crypto.randomBytes(6).toString("hex")}`),
    DATABASE_URL: database.url,
  };
  const machine = (name: string) => {
    const dir = path.join(base, name);
    folders.push(dir);
    return { ...shared, ...dataFolders(dir) };
  };
  a = await startAppProcess(machine("a"));
  b = await startAppProcess(machine("b"));
  admin = await signUp(a.url, "owner@studio.test");
}, 120_000);

afterAll(async () => {
  await Promise.all([a?.stop(), b?.stop()]);
  await database?.drop();
  await s3?.stop();
  fs.rmSync(folders[0], { recursive: true, force: true });
});

/** Every file under a machine's folders, apart from the uploads being received. */
function filesOn(dir: string): string[] {
  return (fs.readdirSync(dir, { recursive: true, withFileTypes: true }) as fs.Dirent[])
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)))
    .filter((relative) => !relative.split(path.sep).includes(".tmp"));
}

describe("two machines, one database and one bucket, no shared folder", () => {
  it("views, downloads, publishes and deletes through B a photo uploaded through A, whose ZIP A serves", async () => {
    const auth = bearer(admin.accessToken);
    const project = await request(a.url).post("/api/projects").set(auth).send({ name: "Across machines" });
    expect(project.status).toBe(201);
    const photo = await makeNoisyJpeg(1200, 900);
    const uploaded = await request(a.url)
      .post(`/api/attachments/projects/${project.body.id}/upload`)
      .set(auth)
      .attach("file", photo, "across.jpg");
    expect(uploaded.status, JSON.stringify(uploaded.body)).toBe(201);
    const id = uploaded.body.id as number;

    const viewed = await getBinary(b.url, `/api/attachments/${id}/view`, auth);
    expect(viewed.status).toBe(200);
    expect((viewed.body as Buffer).equals(photo)).toBe(true);
    const part = await getBinary(b.url, `/api/attachments/${id}/download`, { ...auth, Range: "bytes=100-199" });
    expect(part.status).toBe(206);
    expect((part.body as Buffer).equals(photo.subarray(100, 200))).toBe(true);
    const thumbnail = await request(b.url).get(`/api/attachments/${id}/thumbnail`).set(auth);
    expect(thumbnail.status).toBe(200);
    expect(thumbnail.headers["content-type"]).toBe("image/webp");

    // Published through B, its ZIP downloaded through A: built from the bucket, served from it.
    expect((await request(b.url).post(`/api/projects/${project.body.id}/publish`).set(auth)).status).toBe(202);
    const state = await until(
      async () => (await request(a.url).get(`/api/projects/${project.body.id}`).set(auth)).body,
      (body: { publishStatus: string; deliveryUrl: string }) => body.publishStatus !== "publishing",
      60_000,
    );
    expect(state.publishStatus).toBe("published");
    const zip = await getBinary(a.url, `${new URL(state.deliveryUrl, a.url).pathname}/all.zip`);
    expect(zip.status).toBe(200);
    const zipFile = path.join(folders[0], "across.zip");
    fs.writeFileSync(zipFile, zip.body as Buffer);
    expect(execFileSync("unzip", ["-t", zipFile], { encoding: "utf8" })).toMatch(/No errors detected/);
    expect(execFileSync("unzip", ["-p", zipFile, "across.jpg"], { maxBuffer: 64 * 1024 * 1024 }).equals(photo)).toBe(
      true,
    );

    // Neither machine keeps a photo or a ZIP in its own folder: both use the bucket.
    for (const dir of folders.slice(1)) expect(filesOn(dir), dir).toEqual([]);

    expect((await request(b.url).delete(`/api/projects/${project.body.id}/publish`).set(auth)).status).toBeLessThan(
      300,
    );
    expect((await request(b.url).delete(`/api/attachments/${id}`).set(auth)).status).toBe(204);
    expect((await request(a.url).get(`/api/attachments/${id}/view`).set(auth)).status).toBe(404);
  });
});
