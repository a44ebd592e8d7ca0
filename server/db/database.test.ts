import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { migrate, openDatabase } from "./database";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "photodrop-db-"));
const db = openDatabase(path.join(dir, "nested/folder/db.sqlite3"));
afterAll(async () => {
  await db.destroy();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe("the database connection", () => {
  it("creates the file's folder, migrates, and turns on foreign keys and WAL", async () => {
    await migrate(db);
    expect(fs.existsSync(path.join(dir, "nested/folder/db.sqlite3"))).toBe(true);
    expect(await db.raw("PRAGMA foreign_keys")).toEqual([{ foreign_keys: 1 }]);
    expect(await db.raw("PRAGMA journal_mode")).toEqual([{ journal_mode: "wal" }]);
  });

  it("keeps bound values out of query error messages", async () => {
    const secret = "scrypt$16384$8$1$c2FsdA$aGFzaA-never-in-a-log";
    const err = await db("users")
      .insert({ uid: "u1", email: null, password_hash: secret, created_at: "x", updated_at: "x" })
      .catch((e: Error) => e);
    expect(err).toBeInstanceOf(Error);
    expect((err as Error).message).toContain("NOT NULL");
    expect((err as Error).message).not.toContain(secret);
  });
});
