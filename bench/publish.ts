/**
 * Publish benchmark: `npx tsx bench/publish.ts`
 *
 * Stores ~2 GB of photo-sized files (cached in bench/.data/publish), inserts them as one
 * project's attachments into a fresh database, starts the real server as a child process,
 * publishes through the API and waits for `publish_completed` on /events. Then, on the same files
 * in the same run, `zip -0 -q -r` and `cp -r`. Prints MB/s and the server's peak RSS (VmHWM).
 *
 * BENCH_FILES (400) and BENCH_FILE_MB (5) change the data set; BENCH_VERIFY=1 also runs `unzip -tq`;
 * BENCH_TOOLS_FIRST=1 runs zip and cp before the publish (write-back of earlier runs skews whichever goes later).
 */
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import WebSocket from "ws";
import { createContext } from "../server/bootstrap";
import { loadConfig } from "../server/config";
import { nowIso } from "../server/db/database";
import { createLogger } from "../server/logger";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const dataDir = path.join(root, "bench/.data/publish");
const uploadsDir = path.join(dataDir, "uploads");
const FILES = Number(process.env.BENCH_FILES ?? 400);
const FILE_BYTES = Number(process.env.BENCH_FILE_MB ?? 5) * 1024 * 1024;
const PROJECT_ID = 1;
const ADMIN = { email: "bench-admin@photodrop.local", password: crypto.randomBytes(12).toString("base64url") };

const mb = (bytes: number) => bytes / 1e6;
const seconds = (start: bigint) => Number(process.hrtime.bigint() - start) / 1e9;

/** Random bytes behind a JPEG start-of-image marker: photos do not compress, neither does this. */
function ensureFiles(): string[] {
  const dir = path.join(uploadsDir, String(PROJECT_ID));
  fs.mkdirSync(dir, { recursive: true });
  const buffer = Buffer.alloc(FILE_BYTES);
  const names: string[] = [];
  for (let i = 1; i <= FILES; i++) {
    const name = `IMG_${String(i).padStart(4, "0")}.jpg`;
    const file = path.join(dir, name);
    if (!fs.existsSync(file) || fs.statSync(file).size !== FILE_BYTES) {
      crypto.randomFillSync(buffer);
      buffer.set([0xff, 0xd8, 0xff, 0xe0]);
      fs.writeFileSync(file, buffer);
    }
    names.push(name);
  }
  return names;
}

async function prepareDatabase(runDir: string, names: string[]) {
  const env = {
    DATABASE_URL: path.join(runDir, "bench.sqlite3"),
    UPLOADS_DIR: uploadsDir,
    PUBLISHED_DIR: path.join(runDir, "published"),
    SEED_DEMO: "0",
    LOG_LEVEL: "warn",
  };
  const ctx = await createContext(loadConfig(env), createLogger("silent"));
  const now = nowIso();
  await ctx.db("projects").insert({ id: PROJECT_ID, name: "Benchmark wedding", created_at: now, updated_at: now });
  const rows = names.map((name) => ({
    project_id: PROJECT_ID,
    original_name: name,
    storage_key: `${PROJECT_ID}/${name}`,
    mime_type: "image/jpeg",
    size: FILE_BYTES,
    checksum: "0".repeat(64),
    created_at: now,
    updated_at: now,
  }));
  for (let i = 0; i < rows.length; i += 100) await ctx.db("attachments").insert(rows.slice(i, i + 100));
  // A token minted with the server's own key, in case the sign-in route is not there yet.
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
  const mintedToken = await ctx.tokens.signAccessToken(uid);
  await ctx.db.destroy();
  return { env, mintedToken };
}

/** The server in its own process, `node --import tsx` so that the pid is the server's. */
async function startServer(env: Record<string, string>): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, ["--import", "tsx", "server/index.ts"], {
    cwd: root,
    env: {
      ...process.env,
      ...env,
      PORT: "0",
      HOST: "127.0.0.1",
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
    },
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

function peakRssMb(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
  return Number(status.match(/VmHWM:\s+(\d+) kB/)![1]) / 1024;
}

async function signIn(url: string, mintedToken: string): Promise<{ token: string; how: string }> {
  const res = await fetch(`${url}/api/auth/login`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(ADMIN),
  }).catch(() => undefined);
  if (res?.ok)
    return {
      token: ((await res.json()) as { accessToken: string }).accessToken,
      how: "POST /api/auth/login as ADMIN_EMAIL",
    };
  return { token: mintedToken, how: `token minted in-process (login answered ${res?.status ?? "nothing"})` };
}

/** POST publish, then wait for the end on /events; answers seconds from the POST to publish_completed. */
async function publishAndWait(url: string, token: string): Promise<{ seconds: number; progressEvents: number }> {
  const ws = new WebSocket(`${url.replace(/^http/, "ws")}/events`);
  await new Promise((resolve, reject) => (ws.once("open", resolve), ws.once("error", reject)));
  const frames: Array<{ event: string; data: { type?: string; data?: { error?: string } } }> = [];
  let onFrame = () => {};
  ws.on("message", (raw) => (frames.push(JSON.parse(raw.toString())), onFrame()));
  ws.send(JSON.stringify({ event: "subscribe-to-project", data: { projectId: PROJECT_ID, token } }));
  await new Promise<void>((resolve) => (onFrame = () => frames.some((f) => f.event === "subscribed") && resolve()));

  const start = process.hrtime.bigint();
  const res = await fetch(`${url}/api/projects/${PROJECT_ID}/publish`, {
    method: "POST",
    headers: { Authorization: `Bearer ${token}` },
  });
  if (res.status !== 202) throw new Error(`publish answered ${res.status}: ${await res.text()}`);
  const end = await new Promise<{ event: string; data: { type?: string; data?: { error?: string } } }>((resolve) => {
    onFrame = () => {
      const last = frames.at(-1)!;
      if (last.data.type === "publish_completed" || last.data.type === "publish_failed") resolve(last);
    };
  });
  const elapsed = seconds(start);
  ws.close();
  if (end.data.type === "publish_failed") throw new Error(`publish failed: ${end.data.data?.error}`);
  return { seconds: elapsed, progressEvents: frames.filter((f) => f.data.type === "publish_progress").length };
}

function timed(command: string, args: string[], cwd: string): number {
  const start = process.hrtime.bigint();
  execFileSync(command, args, { cwd, stdio: "inherit" });
  return seconds(start);
}

/** The same files through `zip -0` and `cp -r`, each alone and followed by an fsync of what it wrote. */
function runTools(source: string, runDir: string) {
  const zipSeconds = timed("zip", ["-0", "-q", "-r", path.join(runDir, "zip-0.zip"), "."], source);
  const zipSyncSeconds = zipSeconds + timed("sync", [path.join(runDir, "zip-0.zip")], runDir);
  const cpSeconds = timed("cp", ["-r", source, path.join(runDir, "cp-copy")], runDir);
  const copied = fs.readdirSync(path.join(runDir, "cp-copy")).map((f) => path.join(runDir, "cp-copy", f));
  const cpSyncSeconds = cpSeconds + timed("sync", copied, runDir);
  fs.rmSync(path.join(runDir, "zip-0.zip"));
  fs.rmSync(path.join(runDir, "cp-copy"), { recursive: true });
  return { zipSeconds, zipSyncSeconds, cpSeconds, cpSyncSeconds };
}

async function main() {
  console.log(
    `Preparing ${FILES} × ${FILE_BYTES / 1024 / 1024} MiB in ${path.relative(root, uploadsDir)} (cached between runs)...`,
  );
  const names = ensureFiles();
  const totalBytes = FILES * FILE_BYTES;
  const runDir = fs.mkdtempSync(path.join(dataDir, "run-"));
  let server: ChildProcess | undefined;
  try {
    const { env, mintedToken } = await prepareDatabase(runDir, names);
    const source = path.join(uploadsDir, String(PROJECT_ID));
    // Everything warm: page-cache dropping needs privileges this bench does not assume.
    execFileSync("sh", ["-c", `cat ${source}/* > /dev/null`]);

    const tools = process.env.BENCH_TOOLS_FIRST === "1" ? runTools(source, runDir) : undefined;
    const started = await startServer(env);
    server = started.child;
    const idleRss = peakRssMb(server.pid!);
    const { token, how } = await signIn(started.url, mintedToken);
    const publish = await publishAndWait(started.url, token);
    const serverPeakRss = peakRssMb(server.pid!);
    const zipName = fs.readdirSync(env.PUBLISHED_DIR).find((f) => f.endsWith(".zip"))!;
    const zipPath = path.join(env.PUBLISHED_DIR, zipName);
    const zipBytes = fs.statSync(zipPath).size;
    if (process.env.BENCH_VERIFY === "1") execFileSync("unzip", ["-tq", zipPath], { stdio: "inherit" });
    server.kill("SIGTERM");
    server = undefined;
    const { zipSeconds, zipSyncSeconds, cpSeconds, cpSyncSeconds } = tools ?? runTools(source, runDir);

    const rate = (s: number) => mb(totalBytes) / s;
    const rows: Array<[string, number]> = [
      ["Photodrop publish (API → publish_completed, ZIP fsynced)", publish.seconds],
      ["zip -0 -q -r", zipSeconds],
      ["zip -0 -q -r, then sync of the ZIP", zipSyncSeconds],
      ["cp -r", cpSeconds],
      ["cp -r, then sync of the copies", cpSyncSeconds],
    ];
    console.log(
      `\nData: ${FILES} files, ${mb(totalBytes).toFixed(0)} MB; ZIP ${mb(zipBytes).toFixed(0)} MB; signed in by ${how}`,
    );
    console.log(`Progress events received: ${publish.progressEvents}\n`);
    console.log("| run | seconds | MB/s |\n|---|---|---|");
    for (const [label, s] of rows) console.log(`| ${label} | ${s.toFixed(2)} | ${rate(s).toFixed(0)} |`);
    console.log(
      `\nPublish vs zip -0: ${(zipSeconds / publish.seconds).toFixed(2)}× (vs zip -0 + sync: ${(zipSyncSeconds / publish.seconds).toFixed(2)}×)`,
    );
    console.log(
      `Publish vs cp -r: ${((cpSeconds / publish.seconds) * 100).toFixed(0)}% (vs cp -r + sync: ${((cpSyncSeconds / publish.seconds) * 100).toFixed(0)}%)`,
    );
    console.log(
      `Server peak RSS (VmHWM): ${serverPeakRss.toFixed(0)} MB (after start, before publishing: ${idleRss.toFixed(0)} MB)`,
    );
    console.log(
      `Load average at the end: ${fs.readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ")}`,
    );
  } finally {
    server?.kill("SIGTERM");
    fs.rmSync(runDir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
