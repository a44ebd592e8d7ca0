import fs from "node:fs";
import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../test/harness";

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

/** Puts a plain file where a data folder was: nobody, root included, can create a file in it. */
async function withFolderReplacedByFile(dir: string, run: () => Promise<void>) {
  fs.renameSync(dir, `${dir}.moved`);
  fs.writeFileSync(dir, "not a folder");
  try {
    await run();
  } finally {
    fs.rmSync(dir);
    fs.renameSync(`${dir}.moved`, dir);
  }
}

describe("GET /healthz", () => {
  it("answers 200 ok with package.json's version, without sign-in and without being cached", async () => {
    const { version } = JSON.parse(fs.readFileSync(new URL("../../package.json", import.meta.url), "utf8"));
    expect(version).toMatch(/^\d+\.\d+\.\d+$/);
    const res = await request(t.app).get("/healthz");
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: "ok", version });
    expect(res.headers["cache-control"]).toBe("no-store");
  });
});

describe("GET /readyz", () => {
  it("answers 200 when the database answers and both data folders take a file, with their disks' space, and leaves no probe file", async () => {
    const res = await request(t.app).get("/readyz");
    expect(res.status).toBe(200);
    const space = { freeBytes: expect.any(Number), totalBytes: expect.any(Number) };
    expect(res.body).toEqual({
      status: "ok",
      checks: { database: "ok", uploads: "ok", published: "ok" },
      disk: { uploads: space, published: space },
    });
    expect(res.body.disk.uploads.freeBytes).toBeGreaterThan(0);
    expect(fs.readdirSync(t.ctx.config.publishedDir)).toEqual([]);
    expect(fs.readdirSync(t.ctx.config.uploadsDir).filter((f) => f.startsWith(".ready"))).toEqual([]);
  });

  it.each(["uploads", "published"] as const)(
    "answers 503 naming the %s folder when no file can be written there",
    async (which) => {
      const dir = which === "uploads" ? t.ctx.config.uploadsDir : t.ctx.config.publishedDir;
      await withFolderReplacedByFile(dir, async () => {
        const res = await request(t.app).get("/readyz");
        expect(res.status).toBe(503);
        expect(res.body.status).toBe("unavailable");
        expect(res.body.checks).toEqual({
          database: "ok",
          uploads: "ok",
          published: "ok",
          [which]: "not writable (ENOTDIR)",
        });
        expect(JSON.stringify(res.body)).not.toContain(t.dir);
      });
      expect((await request(t.app).get("/readyz")).status).toBe(200);
    },
  );

  it("answers 503 naming the database when it does not answer, while /healthz stays 200", async () => {
    const other = await createTestApp();
    try {
      await other.ctx.db.destroy();
      const res = await request(other.app).get("/readyz");
      expect(res.status).toBe(503);
      expect(res.body.checks.database).toMatch(/^query failed/);
      expect(res.body.checks.uploads).toBe("ok");
      expect((await request(other.app).get("/healthz")).status).toBe(200);
    } finally {
      fs.rmSync(other.dir, { recursive: true, force: true });
    }
  });
});
