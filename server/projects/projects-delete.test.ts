import fs from "node:fs";
import path from "node:path";
import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, createUser, type TestApp, type TestUser } from "../test/harness";
import type { ResourceChange } from "../events/bus";
import { insertAttachmentRow, insertProjectRow } from "../test/rows";

let t: TestApp;
let user: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  user = await createUser(t.ctx);
});
afterAll(() => t.close());

function writeFile(dir: string, relative: string): string {
  const full = path.join(dir, relative);
  fs.mkdirSync(path.dirname(full), { recursive: true });
  fs.writeFileSync(full, "bytes");
  return full;
}

/** A project with two stored photos (one with a thumbnail) on disk. */
async function projectWithFiles(values: { publishStatus?: string; publishedZipPath?: string } = {}) {
  const id = await insertProjectRow(t.ctx, { name: "With files", ...values });
  const uploads = t.ctx.config.uploadsDir;
  const files = [
    writeFile(uploads, `${id}/a.jpg`),
    writeFile(uploads, `${id}/thumbs/a.webp`),
    writeFile(uploads, `${id}/b.png`),
  ];
  const attachmentIds = [
    await insertAttachmentRow(t.ctx, id, { size: 5, storageKey: `${id}/a.jpg`, thumbnailKey: `${id}/thumbs/a.webp` }),
    await insertAttachmentRow(t.ctx, id, { size: 5, storageKey: `${id}/b.png` }),
  ];
  return { id, files, attachmentIds };
}

describe("deleting a project", () => {
  it("deletes the row, its attachment rows, their files and its upload folder, and announces it", async () => {
    const { id, files, attachmentIds } = await projectWithFiles();
    const bystander = writeFile(t.ctx.config.uploadsDir, "999999/keep.jpg");
    const seen: ResourceChange[] = [];
    const stop = t.ctx.events.onResourceChanged((c) => c.resource !== "dashboard" && seen.push(c));
    const res = await request(t.app).delete(`/api/projects/${id}`).set(user.auth);
    stop();
    expect(res.status).toBe(204);
    expect(await t.ctx.db("projects").where({ id }).first()).toBeUndefined();
    expect(await t.ctx.db("attachments").where({ project_id: id })).toEqual([]);
    for (const f of files) expect(fs.existsSync(f)).toBe(false);
    expect(fs.existsSync(path.join(t.ctx.config.uploadsDir, String(id)))).toBe(false);
    expect(fs.existsSync(bystander)).toBe(true);
    expect(seen).toEqual([
      { resource: "projects", type: "deleted", ids: [id] },
      { resource: "attachments", type: "deleted", ids: attachmentIds },
    ]);
  });

  it("deletes a published project together with its ZIP", async () => {
    const zip = writeFile(t.ctx.config.publishedDir, "f00d.zip");
    const other = writeFile(t.ctx.config.publishedDir, "other.zip");
    const { id, files } = await projectWithFiles({
      publishStatus: "published",
      publishedZipPath: "published/f00d.zip",
    });
    const res = await request(t.app).delete(`/api/projects/${id}`).set(user.auth);
    expect(res.status).toBe(204);
    expect(fs.existsSync(zip)).toBe(false);
    expect(fs.existsSync(other)).toBe(true);
    for (const f of files) expect(fs.existsSync(f)).toBe(false);
  });

  it("answers 409 while the project is publishing and keeps the row and every file", async () => {
    const { id, files } = await projectWithFiles({ publishStatus: "publishing" });
    const res = await request(t.app).delete(`/api/projects/${id}`).set(user.auth);
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ statusCode: 409, message: "Project is published" });
    expect(await t.ctx.db("projects").where({ id }).first()).toBeDefined();
    expect(await t.ctx.db("attachments").where({ project_id: id })).toHaveLength(2);
    for (const f of files) expect(fs.existsSync(f)).toBe(true);
  });

  it("deletes a project whose files are already gone", async () => {
    const id = await insertProjectRow(t.ctx, { name: "No files" });
    await insertAttachmentRow(t.ctx, id, { size: 1 });
    const res = await request(t.app).delete(`/api/projects/${id}`).set(user.auth);
    expect(res.status).toBe(204);
    expect(await t.ctx.db("projects").where({ id }).first()).toBeUndefined();
  });
});
