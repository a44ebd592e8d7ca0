/**
 * Memory benchmark: `npx tsx bench/rss.ts` (runs `npm run build` first if dist/ is missing).
 *
 * For each way of running the server — TypeScript through tsx (how `npm start` ran before the
 * compiled build) and the compiled build as `npm start` runs it now — two fresh starts in their
 * own process: one with the demo seed, whose RSS is read after 10 s idle; one over a ~630 MB
 * project (120 × 5 MiB files, cached in bench/.data/rss), published through the API, whose peak
 * RSS (VmHWM) is read when the build has finished. Memory is read from /proc/<pid>/status.
 */
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createContext } from "../server/bootstrap";
import { loadConfig } from "../server/config";
import { nowIso } from "../server/db/database";
import { createLogger } from "../server/logger";
import { ensureRandomJpegs } from "./photos";
import { root, productionStart } from "./bench-process";

const filesDir = path.join(root, "bench/.data/rss/uploads");
const FILES = 120;
const FILE_BYTES = 5 * 1024 * 1024;
const IDLE_WAIT_MS = 10_000;

interface Mode {
  name: string;
  args: string[];
  env: Record<string, string>;
}

const npmStart = productionStart();
const MODES: Mode[] = [
  { name: "before: tsx server/index.ts", args: ["--import", "tsx", "server/index.ts"], env: {} },
  { name: "compiled, no memory settings", args: ["dist/server/index.js"], env: {} },
  {
    name: "compiled, a 2 MB young generation (npm start until 2026-11-26)",
    args: ["--max-semi-space-size=2", "dist/server/index.js"],
    env: { MALLOC_ARENA_MAX: "2", MALLOC_MMAP_THRESHOLD_: "131072" },
  },
  { name: `as npm start runs it (${npmStart.nodeArgs.join(" ")})`, args: npmStart.nodeArgs, env: npmStart.env },
];

const memory = (pid: number, field: "VmRSS" | "VmHWM") =>
  Number(fs.readFileSync(`/proc/${pid}/status`, "utf8").match(new RegExp(`${field}:\\s+(\\d+) kB`))![1]) / 1024;

async function start(mode: Mode, env: Record<string, string>): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, mode.args, {
    cwd: root,
    env: { PATH: process.env.PATH, ...mode.env, ...env, PORT: "0", HOST: "127.0.0.1", LOG_LEVEL: "warn" },
    stdio: ["ignore", "pipe", "inherit"],
  });
  const url = await new Promise<string>((resolve, reject) => {
    let out = "";
    child.stdout!.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      const match = out.match(/running at (http:\/\/\S+)/);
      if (match) resolve(match[1]);
    });
    child.once("exit", (code) => reject(new Error(`server exited with ${code}:\n${out}`)));
  });
  return { child, url };
}

function stop(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    child.once("exit", () => resolve());
    child.kill("SIGTERM");
  });
}

async function idleAfterSeed(mode: Mode): Promise<number> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "photodrop-rss-"));
  try {
    const env = {
      DATABASE_URL: path.join(dir, "db.sqlite3"),
      UPLOADS_DIR: path.join(dir, "uploads"),
      PUBLISHED_DIR: path.join(dir, "published"),
      SEED_DEMO: "1",
    };
    const { child } = await start(mode, env);
    await new Promise((r) => setTimeout(r, IDLE_WAIT_MS));
    const rss = memory(child.pid!, "VmRSS");
    await stop(child);
    return rss;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

async function peakWhilePublishing(
  mode: Mode,
  names: string[],
): Promise<{ before: number; peak: number; seconds: number }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "photodrop-rss-"));
  try {
    const env = {
      DATABASE_URL: path.join(dir, "db.sqlite3"),
      UPLOADS_DIR: filesDir,
      PUBLISHED_DIR: path.join(dir, "published"),
      SEED_DEMO: "0",
    };
    const ctx = await createContext(loadConfig({ ...env, LOG_LEVEL: "silent" }), createLogger("silent"));
    const now = nowIso();
    await ctx.db("projects").insert({ id: 1, name: "Memory wedding", created_at: now, updated_at: now });
    const rows = names.map((name) => ({
      project_id: 1,
      original_name: name,
      storage_key: `1/${name}`,
      mime_type: "image/jpeg",
      size: FILE_BYTES,
      checksum: "0".repeat(64),
      created_at: now,
      updated_at: now,
    }));
    for (let i = 0; i < rows.length; i += 100) await ctx.db("attachments").insert(rows.slice(i, i + 100));
    const uid = `bench-${crypto.randomBytes(6).toString("hex")}`;
    await ctx.db("users").insert({
      uid,
      email: `${uid}@photodrop.local`,
      role: "admin",
      has_access: true,
      email_verified: true,
      created_at: now,
      updated_at: now,
    });
    const token = await ctx.tokens.signAccessToken(uid);
    await ctx.db.destroy();

    const { child, url } = await start(mode, env);
    const auth = { Authorization: `Bearer ${token}` };
    await new Promise((r) => setTimeout(r, 2000));
    const before = memory(child.pid!, "VmRSS");
    const started = Date.now();
    const res = await fetch(`${url}/api/projects/1/publish`, { method: "POST", headers: auth });
    if (res.status !== 202) throw new Error(`publish answered ${res.status}: ${await res.text()}`);
    for (;;) {
      const project = (await (await fetch(`${url}/api/projects/1`, { headers: auth })).json()) as {
        publishStatus: string;
        publishError?: string;
      };
      if (project.publishStatus === "published") break;
      if (project.publishStatus === "failed") throw new Error(`publish failed: ${project.publishError}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    const seconds = (Date.now() - started) / 1000;
    const peak = memory(child.pid!, "VmHWM");
    await stop(child);
    return { before, peak, seconds };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

async function main() {
  if (!fs.existsSync(path.join(root, "dist/server/index.js")))
    execFileSync("npm", ["run", "build"], { cwd: root, stdio: "inherit" });
  const names = ensureRandomJpegs(path.join(filesDir, "1"), FILES, FILE_BYTES, 4);
  execFileSync("sh", ["-c", `cat ${path.join(filesDir, "1")}/* > /dev/null`]);
  console.log(
    `| how the server runs | idle after demo seed, RSS MB | before publishing, RSS MB | peak while publishing ${((FILES * FILE_BYTES) / 1e6).toFixed(0)} MB, VmHWM MB | publish s |`,
  );
  console.log("|---|---|---|---|---|");
  for (const mode of MODES) {
    const idle = await idleAfterSeed(mode);
    const publish = await peakWhilePublishing(mode, names);
    console.log(
      `| ${mode.name} | ${idle.toFixed(0)} | ${publish.before.toFixed(0)} | ${publish.peak.toFixed(0)} | ${publish.seconds.toFixed(1)} |`,
    );
  }
  console.log(
    `\nLoad average at the end: ${fs.readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ")}`,
  );
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
