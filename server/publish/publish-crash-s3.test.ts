import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bearer, RELAXED_LIMITS, signUp } from "../auth/auth-test-helpers";
import { dataFolders, startAppProcess, type AppProcess } from "../test/app-process";
import { createTestApp, type TestApp } from "../test/harness";
import { insertAttachmentRow } from "../test/rows";
import { startS3Server, type TestS3Server } from "../test/s3-server";
import { publishedKeys, writeStored } from "../test/stored-files";
import { until } from "../test/wait";
import { projectRow } from "./test-fixtures";

/** Photos of 8 MiB each: a build of ten of them takes long enough to be killed in the middle. */
const PHOTO = 8 * 1024 * 1024;

/**
 * A real process publishing into object storage (s3rver, in this test process) is killed
 * (SIGKILL) in the middle of its multipart upload; the bucket holds no ZIP, whole or partial, only
 * the unfinished upload's parts, as a real bucket would; the next start fails the project and its
 * sweep aborts that upload (the test server lists and aborts multipart uploads, docs/object-storage.md).
 */
let s3: TestS3Server;
let dir: string;
let env: Record<string, string>;
let app: AppProcess | undefined;
/** In-process access to the same database and bucket, to arrange the photos and read the rows. */
let local: TestApp;

beforeAll(async () => {
  s3 = await startS3Server();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "photodrop-s3-crash-"));
  env = {
    ...RELAXED_LIMITS,
    ...s3.env("crash/"),
    ...dataFolders(dir),
    DATABASE_URL: path.join(dir, "db.sqlite3"),
    // The sweep aborts a ZIP's upload once it is twice the lease old: 6 s.
    PUBLISH_LEASE_SECONDS: "3",
  };
  local = await createTestApp(env);
  app = await startAppProcess(env);
}, 120_000);

afterAll(async () => {
  await app?.stop();
  await local?.close();
  await s3?.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe("a process killed while it publishes into object storage", () => {
  it("leaves no ZIP in the bucket, and the next start fails the project, which publishes again", async () => {
    const admin = await signUp(app!.url, "boss@studio.test");
    const auth = bearer(admin.accessToken);
    const project = await request(app!.url).post("/api/projects").set(auth).send({ name: "Big Wedding" });
    expect(project.status).toBe(201);
    const id = project.body.id as number;
    for (let i = 1; i <= 10; i++) {
      const storageKey = `${id}/${crypto.randomBytes(12).toString("base64url")}.jpg`;
      await writeStored(local.ctx, storageKey, crypto.randomBytes(PHOTO));
      await insertAttachmentRow(local.ctx, id, { originalName: `photo-${i}.jpg`, storageKey, size: PHOTO });
    }

    expect((await request(app!.url).post(`/api/projects/${id}/publish`).set(auth)).status).toBe(202);
    // Killed once its multipart upload has begun (with its first 8 MiB part).
    await until(
      () => s3.uploadsInProgress(),
      (keys) => keys.length === 1,
    );
    const uploadSeenAt = Date.now();
    app!.kill("SIGKILL");
    await until(
      async () =>
        await fetch(`${app!.url}/readyz`).then(
          () => true,
          () => false,
        ),
      (up) => !up,
    );

    // Killed mid-way: the build had not finished, nothing under the ZIP's name exists, and the
    // bucket keeps the parts of its unfinished upload.
    const killed = await projectRow(local.ctx, id);
    expect(killed.publish_status).toBe("publishing");
    expect(await publishedKeys(local.ctx)).toEqual([]);
    expect(s3.uploadsInProgress()).toEqual([`crash/published/${killed.publish_file}`]);

    // The next start's sweep aborts a ZIP's upload begun over twice the lease ago (the time the
    // subject, in another process: no clock to drive), waited out from when it was seen begun. Too
    // short a wait fails below: the sweep after the start's comes ten minutes later.
    const abandonedAt = uploadSeenAt + 2 * Number(env.PUBLISH_LEASE_SECONDS) * 1000;
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, abandonedAt - Date.now()) + 1));
    const restarted = await startAppProcess(env);
    app = restarted;
    const row = await projectRow(local.ctx, id);
    expect(row.publish_status).toBe("failed");
    expect(row.publish_error).toMatch(/^Interrupted/);
    await until(
      () => s3.uploadsInProgress(),
      (keys) => keys.length === 0,
    );
    // The log line follows the abort; on a busy machine it may reach the pipe a moment later.
    await until(
      () => restarted.log(),
      (log) => /aborted unfinished multipart uploads left by a stopped process/.test(log),
    );
    expect(await publishedKeys(local.ctx)).toEqual([]);

    expect((await request(app.url).post(`/api/projects/${id}/publish`).set(auth)).status).toBe(202);
    const published = await until(
      () => projectRow(local.ctx, id),
      (r) => r.publish_status !== "publishing",
      60_000,
    );
    expect(published.publish_status).toBe("published");
    expect(await publishedKeys(local.ctx)).toEqual([path.basename(published.published_zip_path)]);
  }, 120_000);
});
