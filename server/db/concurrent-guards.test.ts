import path from "node:path";
import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RELAXED_LIMITS, signUp } from "../auth/auth-test-helpers";
import { makeImage } from "../attachments/test-fixtures";
import { projectRow, readZip, until } from "../publish/test-fixtures";
import { createTestApp, createUser, type TestApp } from "../test/harness";
import { insertProjectRow } from "../test/rows";

/**
 * Two app instances over one database, each with its own connection pool, as two processes
 * would be: under `npm run test:pg` the guards must hold with truly concurrent writers.
 */
let a: TestApp;
let b: TestApp;

beforeAll(async () => {
  a = await createTestApp(RELAXED_LIMITS);
  b = await createTestApp({
    ...RELAXED_LIMITS,
    DATABASE_URL: a.ctx.config.databaseUrl,
    UPLOADS_DIR: a.ctx.config.uploadsDir,
    PUBLISHED_DIR: a.ctx.config.publishedDir,
  });
});
afterAll(async () => {
  await b.close();
  await a.close();
});

describe("guards with two app instances on one database", () => {
  it("makes exactly one admin of twenty sign-ups on an empty database split across both", async () => {
    const sessions = await Promise.all(
      Array.from({ length: 20 }, (_, i) => signUp(i % 2 === 0 ? a.app : b.app, `racer${i}@studio.test`)),
    );
    expect(sessions.filter((s) => s.user.role === "admin")).toHaveLength(1);
    expect(await a.ctx.db("users").where({ role: "admin" })).toHaveLength(1);
    expect(await a.ctx.db("users").count({ n: "*" }).first()).toEqual({ n: 20 });
  });

  it("leaves an approved admin when two admins demote each other through different instances", async () => {
    for (let round = 0; round < 5; round++) {
      await a.ctx.db("users").where({ role: "admin" }).update({ role: "staff" });
      const one = await createUser(a.ctx, { role: "admin" });
      const two = await createUser(a.ctx, { role: "admin" });
      const answers = await Promise.all([
        request(a.app).put(`/api/users/${two.uid}`).set(one.auth).send({ role: "staff" }),
        request(b.app).put(`/api/users/${one.uid}`).set(two.auth).send({ role: "staff" }),
      ]);
      expect(answers.filter((r) => r.status === 200)).toHaveLength(1);
      expect(answers.map((r) => r.status).find((s) => s !== 200)).toBeOneOf([403, 409]);
      expect(await a.ctx.db("users").where({ role: "admin", has_access: true })).toHaveLength(1);
    }
  });

  it("never lets an upload through one instance land in a project another instance is publishing", async () => {
    const staff = await createUser(a.ctx);
    const photo = await makeImage("jpeg");
    for (let round = 0; round < 6; round++) {
      const id = await insertProjectRow(a.ctx, { name: `Race ${round}` });
      const first = await request(a.app)
        .post(`/api/attachments/projects/${id}/upload`)
        .set(staff.auth)
        .attach("file", photo, "first.jpg");
      expect(first.status).toBe(201);
      const [uploaded, published] = await Promise.all([
        request(a.app)
          .post(`/api/attachments/projects/${id}/upload`)
          .set(staff.auth)
          .attach("file", photo, "racer.jpg"),
        request(b.app).post(`/api/projects/${id}/publish`).set(staff.auth),
      ]);
      expect(uploaded.status).toBeOneOf([201, 409]);
      expect(published.status).toBe(202);
      const row = await until(
        () => projectRow(a.ctx, id),
        (r) => r.publish_status !== "publishing",
        20_000,
      );
      expect(row.publish_status).toBe("published");
      const entries = await readZip(path.join(a.ctx.config.publishedDir, path.basename(row.published_zip_path)));
      const attachments = await a.ctx.db("attachments").where({ project_id: id });
      expect(entries.map((e) => e.name).sort()).toEqual(attachments.map((r) => r.original_name).sort());
    }
  });
});
