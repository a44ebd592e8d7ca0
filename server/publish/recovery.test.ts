import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import request from "supertest";
import { afterEach, describe, expect, it } from "vitest";
import { createApp } from "../app";
import { closeContext, createContext } from "../bootstrap";
import { loadConfig } from "../config";
import type { AppContext } from "../context";
import { nowIso } from "../db/database";
import { runStartupTasks } from "../startup";
import { createUser } from "../test/harness";
import { cancelAllPublishes } from "./publish.service";
import { INTERRUPTED_MESSAGE } from "./recovery";
import { addPhoto, projectRow, recordPublishEvents } from "./test-fixtures";
import { insertProjectRow } from "../test/rows";

let dir: string;
const contexts: AppContext[] = [];

/** A context over a fixed folder, so a second one is the same installation started again. */
async function start(): Promise<AppContext> {
  const config = loadConfig({
    DATABASE_URL: path.join(dir, "db.sqlite3"),
    UPLOADS_DIR: path.join(dir, "uploads"),
    PUBLISHED_DIR: path.join(dir, "published"),
    SEED_DEMO: "0",
    LOG_LEVEL: "silent",
  });
  const ctx = await createContext(config);
  contexts.push(ctx);
  return ctx;
}

async function stop(ctx: AppContext) {
  await cancelAllPublishes(ctx);
  await closeContext(ctx);
}

afterEach(async () => {
  for (const ctx of contexts.splice(0)) await stop(ctx).catch(() => {});
  fs.rmSync(dir, { recursive: true, force: true });
});

describe("recovery at start", () => {
  it("fails projects left publishing, removes partial and orphaned ZIPs (web size too), and keeps published ones", async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "photodrop-recovery-"));
    const first = await start();
    const interrupted = await insertProjectRow(first, { name: "Interrupted" });
    await addPhoto(first, interrupted, "one.jpg");
    const published = await insertProjectRow(first, { name: "Published" });
    const keptZip = "K".repeat(22) + ".zip";
    await first.db("projects").where({ id: interrupted }).update({ publish_status: "publishing" });
    await first
      .db("projects")
      .where({ id: published })
      .update({ publish_status: "published", published_at: nowIso(), published_zip_path: `published/${keptZip}` });
    const publishedDir = first.config.publishedDir;
    const part = "P".repeat(22) + ".zip.part";
    const orphan = "O".repeat(22) + ".zip";
    // With web size: the kept project's web-size ZIP, the interrupted build's half-written one,
    // and the pair a crash between the renames and the commit left behind.
    const keptWebZip = "K".repeat(22) + "-web.zip";
    const webPart = "P".repeat(22) + "-web.zip.part";
    const orphanWebZip = "O".repeat(22) + "-web.zip";
    for (const name of [keptZip, keptWebZip, part, webPart, orphan, orphanWebZip, "notes.txt", ".gitkeep"])
      fs.writeFileSync(path.join(publishedDir, name), "x");
    await first.db.destroy();
    contexts.splice(0);

    const second = await start();
    await runStartupTasks(second);

    expect(await projectRow(second, interrupted)).toMatchObject({
      publish_status: "failed",
      publish_error: INTERRUPTED_MESSAGE,
      published_zip_path: null,
      published_at: null,
    });
    expect((await projectRow(second, published)).publish_status).toBe("published");
    expect(fs.readdirSync(publishedDir).sort()).toEqual([".gitkeep", keptZip, keptWebZip, "notes.txt"].sort());

    const user = await createUser(second);
    const app = createApp(second);
    const events = recordPublishEvents(second, interrupted);
    const res = await request(app).post(`/api/projects/${interrupted}/publish`).set(user.auth);
    expect(res.status).toBe(202);
    await events.next("publish_completed");
    expect(await projectRow(second, interrupted)).toMatchObject({ publish_status: "published", publish_error: null });
  });

  it("leaves a clean installation as it is", async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "photodrop-recovery-"));
    const ctx = await start();
    const id = await insertProjectRow(ctx);
    await runStartupTasks(ctx);
    expect((await projectRow(ctx, id)).publish_status).toBe("draft");
    expect(fs.readdirSync(ctx.config.publishedDir)).toEqual([]);
  });
});
