import { execFileSync, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { openDatabase } from "../db/database";

const root = path.resolve(import.meta.dirname, "../..");
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "photodrop-build-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe("the compiled production build", () => {
  it("runs under plain node: migrates from the compiled migrations, loads the demo seed and answers /readyz", async () => {
    const out = path.join(dir, "dist");
    // Packages stay outside the bundle and are found the way a checkout finds them.
    fs.symlinkSync(path.join(root, "node_modules"), path.join(dir, "node_modules"));
    execFileSync(process.execPath, ["scripts/build.mjs", "--server", "--outdir", out], { cwd: root, stdio: "pipe" });
    expect(fs.readdirSync(path.join(out, "migrations")).some((f) => f.endsWith(".js"))).toBe(true);

    const databaseFile = path.join(dir, "db.sqlite3");
    const child = spawn(process.execPath, [path.join(out, "server/index.js")], {
      cwd: dir,
      env: {
        PATH: process.env.PATH,
        DATABASE_URL: databaseFile,
        UPLOADS_DIR: path.join(dir, "uploads"),
        PUBLISHED_DIR: path.join(dir, "published"),
        PORT: "0",
        LOG_LEVEL: "silent",
        SEED_DEMO: "1",
      },
    });
    let output = "";
    child.stdout.on("data", (d) => (output += d));
    child.stderr.on("data", (d) => (output += d));
    const exited = new Promise<number | null>((resolve) => child.on("exit", resolve));
    try {
      const url = await new Promise<string>((resolve, reject) => {
        child.stdout.on("data", () => {
          // The address and the sign-in line are two writes: they may arrive in separate chunks.
          const m = output.match(/running at (http:\/\/\S+)/);
          if (m && /Sign in as/.test(output)) resolve(m[1]);
        });
        void exited.then(() => reject(new Error(`exited before listening:\n${output}`)));
      });
      expect(output).toMatch(/Sign in as admin@photodrop\.local with password \S+/);
      const ready = await fetch(`${url}/readyz`);
      expect(ready.status).toBe(200);

      // Recorded under the sources' names, so a database migrated under tsx stays current here.
      const db = openDatabase(databaseFile);
      try {
        const names = (await db("knex_migrations").pluck("name")) as string[];
        const sources = fs.readdirSync(path.join(root, "migrations")).filter((f) => f.endsWith(".ts"));
        expect(names.sort()).toEqual(sources.sort());
        expect(Number((await db("attachments").count({ n: "*" }).first())?.n)).toBeGreaterThan(0);
      } finally {
        await db.destroy();
      }
    } finally {
      child.kill("SIGTERM");
    }
    expect(await exited).toBe(0);
  }, 120_000);
});
