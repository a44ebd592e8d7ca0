import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bearer, RELAXED_LIMITS, signUp } from "../auth/auth-test-helpers";
import { addSlowAttachment, projectRow } from "../publish/test-fixtures";
import { dataFolders, startAppProcess, type AppProcess } from "../test/app-process";
import { createTestApp, type TestApp } from "../test/harness";
import { createTestDatabase, type TestDatabase } from "../test/test-database";
import { until } from "../test/wait";

const LEASE_SECONDS = 5;

/**
 * Process A dies (SIGKILL) in the middle of a build; process B, on the same database and data
 * folder, ends the project within the lease time plus 10 s and leaves no partial file.
 */
let dir: string;
let database: TestDatabase;
let a: AppProcess;
let b: AppProcess;
/** In-process access to the same database and folders, to lay out a build that only moves when fed. */
let local: TestApp;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "photodrop-crash-"));
  database = await createTestDatabase(dir);
  const env = {
    ...RELAXED_LIMITS,
    DATABASE_URL: database.url,
    PUBLISH_LEASE_SECONDS: String(LEASE_SECONDS),
    ...dataFolders(dir),
  };
  a = await startAppProcess(env);
  b = await startAppProcess(env);
  local = await createTestApp(env);
}, 120_000);

afterAll(async () => {
  await Promise.all([a?.stop(), b?.stop()]);
  await local?.close();
  await database?.drop();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe("a process killed in the middle of a build", () => {
  it("is noticed by the other, which fails the project within the lease plus 10 s and leaves no .part", async () => {
    const admin = await signUp(a.url, "boss@studio.test");
    const project = await request(a.url)
      .post("/api/projects")
      .set(bearer(admin.accessToken))
      .send({ name: "Big Wedding" });
    expect(project.status).toBe(201);
    const id = project.body.id as number;
    // A photo whose bytes arrive only as the test feeds them: the build is mid-way for as long as needed.
    const pipe = await addSlowAttachment(local.ctx, id, "big.jpg", 8 * 1024 * 1024);
    try {
      const started = await request(a.url).post(`/api/projects/${id}/publish`).set(bearer(admin.accessToken));
      expect(started.status).toBe(202);
      const building = await until(
        () => projectRow(local.ctx, id),
        (row) => row.publish_file !== null,
      );
      await pipe.feed(256 * 1024);
      const part = path.join(local.ctx.config.publishedDir, `${building.publish_file}.part`);
      await until(
        () => (fs.existsSync(part) ? fs.statSync(part).size : 0),
        (size) => size > 0,
      );

      a.kill("SIGKILL");
      const killedAt = Date.now();
      const ended = await until(
        async () => (await request(b.url).get(`/api/projects/${id}`).set(bearer(admin.accessToken))).body,
        (body) => body.publishStatus !== "publishing",
        (LEASE_SECONDS + 10) * 1000,
      );
      const tookMs = Date.now() - killedAt;
      console.log(`B ended the project ${tookMs} ms after A was killed (lease ${LEASE_SECONDS} s)`);

      expect(ended.publishStatus).toBe("failed");
      expect(ended.publishError).toMatch(/^Interrupted/);
      expect(tookMs).toBeLessThan((LEASE_SECONDS + 10) * 1000);
      expect(fs.readdirSync(local.ctx.config.publishedDir).filter((f) => f.endsWith(".part"))).toEqual([]);
    } finally {
      pipe.release();
    }
  });
});
