import { spawn } from "node:child_process";
import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, createUser, type TestApp, type TestUser } from "../test/harness";
import { insertClientRow } from "../test/rows";

let t: TestApp;
let user: TestUser;

beforeAll(async () => {
  // sqlite's own write lock is what this tests, so it runs on sqlite in the PostgreSQL suite too.
  t = await createTestApp({}, { sqliteOnly: true });
  user = await createUser(t.ctx);
});
afterAll(() => t.close());

/**
 * Another process (a sqlite3 shell, a backup, a second Photodrop) holding the write lock for
 * `ms`: resolves once it holds the lock, and gives a promise for its exit.
 */
function holdWriteLock(file: string, ms: number): Promise<{ done: Promise<number | null> }> {
  const script = `
    import sqlite3 from "sqlite3";
    const db = new sqlite3.Database(process.argv[1]);
    db.exec("BEGIN IMMEDIATE; UPDATE clients SET name = name", (err) => {
      if (err) { console.error(err.message); process.exit(2); }
      console.log("locked");
      setTimeout(() => db.exec("COMMIT", () => db.close(() => process.exit(0))), ${ms});
    });`;
  const child = spawn(process.execPath, ["--input-type=module", "-e", script, file], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  const done = new Promise<number | null>((resolve) => child.once("exit", resolve));
  return new Promise((resolve, reject) => {
    child.stdout.on("data", (chunk: Buffer) => {
      if (chunk.toString().includes("locked")) resolve({ done });
    });
    child.once("exit", (code) => reject(new Error(`lock holder exited with ${code}`)));
  });
}

describe("a second process holding the write lock", () => {
  it("delays writes, reads-then-writes included, instead of failing them", async () => {
    const clientId = await insertClientRow(t.ctx, "Doomed");
    const lock = await holdWriteLock(t.ctx.config.databaseUrl, 1500);
    const started = Date.now();
    const [removed, created] = await Promise.all([
      // A transaction that reads before it writes: sqlite cannot wait for the lock mid-transaction.
      request(t.app).delete(`/api/clients/${clientId}`).set(user.auth),
      request(t.app).post("/api/clients").set(user.auth).send({ name: "Waited" }),
    ]);
    expect(created.status).toBe(201);
    expect(removed.status).toBe(204);
    expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
    expect(await lock.done).toBe(0);
  }, 30_000);
});
