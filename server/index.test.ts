import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "..");
const dirs: string[] = [];

function tempDir() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "photodrop-start-"));
  dirs.push(dir);
  return dir;
}

function start(env: Record<string, string>) {
  // Node itself with tsx as a loader, as npm start runs node: the tsx command would stand between the
  // signal and the server, and SIGKILL it (exit 143) when it does not answer the relay within 30 ms.
  const child = spawn(process.execPath, ["--import", "tsx", "server/index.ts"], {
    cwd: root,
    env: { PATH: process.env.PATH, LOG_LEVEL: "silent", SEED_DEMO: "0", PORT: "0", ...env },
  });
  let out = "";
  child.stdout.on("data", (d) => (out += d));
  child.stderr.on("data", (d) => (out += d));
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  const ready = new Promise<string>((resolve, reject) => {
    child.stdout.on("data", () => {
      const m = out.match(/running at (http:\/\/\S+)/);
      if (m) resolve(m[1]);
    });
    exited.then(() => reject(new Error(`exited before listening:\n${out}`)));
  });
  ready.catch(() => {});
  return { child, ready, exited, output: () => out };
}

afterAll(() => dirs.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

describe("starting and stopping the server process", () => {
  it("migrates, serves the API on the printed address and exits 0 on SIGTERM", async () => {
    const dir = tempDir();
    const s = start({
      DATABASE_URL: path.join(dir, "data/db.sqlite3"),
      UPLOADS_DIR: path.join(dir, "uploads"),
      PUBLISHED_DIR: path.join(dir, "published"),
    });
    const url = await s.ready;
    const res = await fetch(`${url}/api/clients`);
    expect(res.status).toBe(401);
    expect(fs.existsSync(path.join(dir, "data/db.sqlite3"))).toBe(true);
    s.child.kill("SIGTERM");
    expect(await s.exited).toBe(0);
  });

  it("bound to all interfaces, prints the local address and serves on it", async () => {
    const dir = tempDir();
    const s = start({
      HOST: "0.0.0.0",
      DATABASE_URL: path.join(dir, "db.sqlite3"),
      UPLOADS_DIR: path.join(dir, "uploads"),
      PUBLISHED_DIR: path.join(dir, "published"),
      PUBLIC_URL: "https://photos.studio.example",
    });
    const local = await new Promise<string>((resolve, reject) => {
      s.child.stdout.on("data", () => {
        const m = s.output().match(/Local: +(http:\/\/localhost:\d+)/);
        if (m && s.output().includes("Warning: PUBLIC_URL")) resolve(m[1]);
      });
      s.exited.then(() => reject(new Error(s.output())));
    });
    expect((await fetch(`${local.replace("localhost", "127.0.0.1")}/api/clients`)).status).toBe(401);
    s.child.kill("SIGTERM");
    expect(await s.exited).toBe(0);
  });

  it("stops with a message naming a bad variable", async () => {
    const s = start({ PORT: "not-a-port" });
    expect(await s.exited).toBe(1);
    expect(s.output()).toContain("PORT");
    expect(s.output()).not.toContain("    at ");
  });

  it("stops with a clear message when a data folder cannot be written", async () => {
    const dir = tempDir();
    const blocked = path.join(dir, "a-file");
    fs.writeFileSync(blocked, "");
    const s = start({ DATABASE_URL: path.join(dir, "db.sqlite3"), UPLOADS_DIR: path.join(blocked, "uploads") });
    expect(await s.exited).toBe(1);
    expect(s.output()).toContain("Cannot use UPLOADS_DIR");
  });

  it("stops with a clear message when the database cannot be opened", async () => {
    const dir = tempDir();
    fs.writeFileSync(path.join(dir, "not-a-db.sqlite3"), "this is not a database file at all, just text ".repeat(200));
    const s = start({
      DATABASE_URL: path.join(dir, "not-a-db.sqlite3"),
      UPLOADS_DIR: path.join(dir, "uploads"),
      PUBLISHED_DIR: path.join(dir, "published"),
    });
    expect(await s.exited).toBe(1);
    expect(s.output()).toContain("Cannot open database");
  });
});
