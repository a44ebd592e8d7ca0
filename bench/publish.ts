/**
 * Publish benchmark: `npx tsx bench/publish.ts`
 *
 * Two data sets of the same total size, each one project's attachments: 10,000 photos of 300 kB
 * (a school's portrait day) and 100 of 30 MB. Random bytes behind a JPEG marker (photos do not
 * compress), generated once into bench/.data/publish-<count>x<bytes>/ and reused; rows inserted by
 * SQL into a fresh database. For each set the real server, started as `npm start` starts it,
 * publishes through the API (timed from the POST to `publish_completed` on /events; the ZIP is
 * written, fsynced, renamed and recorded in that time); then, on the same files in the same run,
 * `zip -0 -q -r` and `cp -r`, each also followed by a sync of what it wrote. Each set is published
 * BENCH_ROUNDS times (default 3; the sets take turns, each on a fresh database and a freshly
 * started server) and the median is the figure. In each round the server then unpublishes the
 * project and publishes it again: the first build after a start also pays for V8 compiling the
 * build's code (a second of its helper threads for 10,000 photos), the second is what a server
 * that has already published pays. Prints both, MB/s, the shares, the small-files set against the
 * large-files set, and the server's peak RSS (VmHWM).
 *
 * BENCH_SCALE=0.2 shrinks both sets (2,000 × 300 kB and 20 × 30 MB) for a quick run;
 * BENCH_VERIFY=1 also runs `unzip -tq` on each ZIP; BENCH_DB=pg runs on PostgreSQL.
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import WebSocket from "ws";
import { closeContext, createContext } from "../server/bootstrap";
import { loadConfig } from "../server/config";
import { createLogger } from "../server/logger";
import { memoryOf, resetPeakMemory } from "../server/test/app-process";
import { BENCH_ADMIN, BENCH_ADMIN_ENV, benchApi, benchSignIn } from "./bench-api";
import { benchDatabase, benchServerEnv } from "./bench-database";
import { root, startProductionServer } from "./bench-process";
import { loadAverageLine } from "./machine";
import { ensureRandomJpegs } from "./photos";

const SCALE = Number(process.env.BENCH_SCALE ?? 1);
/** Publishes of each set, taking turns; the median is the figure. */
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const PROJECT_ID = 1;
const SETS = [
  { files: Math.round(10_000 * SCALE), bytes: 300_000 },
  { files: Math.round(100 * SCALE), bytes: 30_000_000 },
];

const mb = (bytes: number) => bytes / 1e6;
const seconds = (start: bigint) => Number(process.hrtime.bigint() - start) / 1e9;

/** The project and its attachment rows, by SQL, in a freshly migrated database. */
async function fillDatabase(env: Record<string, string>, names: string[], bytes: number) {
  const ctx = await createContext(loadConfig(env), createLogger("silent"));
  const db = ctx.db;
  try {
    const now = new Date().toISOString();
    await db("projects").insert({ id: PROJECT_ID, name: "Benchmark portrait day", created_at: now, updated_at: now });
    const rows = names.map((name) => ({
      project_id: PROJECT_ID,
      original_name: name,
      storage_key: `${PROJECT_ID}/${name}`,
      mime_type: "image/jpeg",
      size: bytes,
      checksum: "0".repeat(64),
      created_at: now,
      updated_at: now,
    }));
    await db.batchInsert("attachments", rows, 500);
  } finally {
    await closeContext(ctx);
  }
}

/** POST publish, then wait for the end on /events; answers seconds from the POST to publish_completed. */
async function publishAndWait(url: string, token: string): Promise<number> {
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
  const end = await new Promise<(typeof frames)[number]>((resolve) => {
    onFrame = () => {
      const last = frames.at(-1)!;
      if (last.data.type === "publish_completed" || last.data.type === "publish_failed") resolve(last);
    };
  });
  const elapsed = seconds(start);
  ws.close();
  if (end.data.type === "publish_failed") throw new Error(`publish failed: ${end.data.data?.error}`);
  return elapsed;
}

function timed(command: string, args: string[], cwd: string): number {
  const start = process.hrtime.bigint();
  execFileSync(command, args, { cwd, stdio: "inherit" });
  return seconds(start);
}

interface Publish {
  /** The first publish after the server started. */
  seconds: number;
  /** The same project unpublished and published again by that server. */
  again: number;
  peakMb: number;
}

interface SetResult {
  files: number;
  bytes: number;
  publishes: Publish[];
  zip: number;
  zipSync: number;
  cp: number;
  cpSync: number;
}

/** A data set's photos, generated once and kept between runs. */
interface PreparedSet {
  files: number;
  bytes: number;
  dataDir: string;
  names: string[];
  source: string;
}

function prepareSet(files: number, bytes: number): PreparedSet {
  const dataDir = path.join(root, `bench/.data/publish-${files}x${bytes}`);
  console.log(`Preparing ${files} × ${bytes / 1000} kB in ${path.relative(root, dataDir)} (cached between runs)...`);
  const source = path.join(dataDir, "uploads", String(PROJECT_ID));
  return { files, bytes, dataDir, names: ensureRandomJpegs(source, files, bytes, 5), source };
}

/** One publish of the set: a fresh database and a freshly started server, as after a restart. */
async function publishOnce({ files, bytes, dataDir, names, source }: PreparedSet): Promise<Publish> {
  const run = fs.mkdtempSync(path.join(os.tmpdir(), "photodrop-bench-publish-"));
  const database = await benchDatabase(run);
  try {
    const env = {
      ...benchServerEnv(run, database.url),
      // The generated photos are kept between runs, in their own folder.
      UPLOADS_DIR: path.join(dataDir, "uploads"),
      ...BENCH_ADMIN_ENV,
    };
    await fillDatabase(env, names, bytes);
    // Everything warm: dropping the page cache needs privileges this bench does not assume.
    execFileSync("sh", ["-c", `find "${source}" -type f -exec cat {} + > /dev/null`]);
    const server = await startProductionServer(env, path.join(run, "photodrop.log"));
    let seconds: number;
    let again: number;
    let peakMb: number;
    try {
      const accessToken = await benchSignIn(server.url, BENCH_ADMIN);
      resetPeakMemory(server.pid);
      seconds = await publishAndWait(server.url, accessToken);
      const auth = { headers: { Authorization: `Bearer ${accessToken}` } };
      await benchApi(server.url, `/api/projects/${PROJECT_ID}/publish`, { method: "DELETE", ...auth }, 200);
      again = await publishAndWait(server.url, accessToken);
      peakMb = memoryOf(server.pid).peak / 1048576;
    } finally {
      await server.stop();
    }
    const zipFile = fs.readdirSync(env.PUBLISHED_DIR).find((f) => f.endsWith(".zip"))!;
    if (process.env.BENCH_VERIFY === "1")
      execFileSync("unzip", ["-tq", path.join(env.PUBLISHED_DIR, zipFile)], { stdio: "inherit" });
    const set = `${files.toLocaleString("en")} × ${bytes / 1000} kB`;
    console.log(`  ${set} published in ${seconds.toFixed(2)} s after a start, ${again.toFixed(2)} s again`);
    return { seconds, again, peakMb };
  } finally {
    await database.stop();
    fs.rmSync(run, { recursive: true, force: true });
  }
}

/** `zip -0` and `cp -r` of the same files, each with a sync of what it wrote. */
function baselines({ source }: PreparedSet) {
  const run = fs.mkdtempSync(path.join(os.tmpdir(), "photodrop-bench-publish-"));
  try {
    const zipOut = path.join(run, "zip-0.zip");
    const zip = timed("zip", ["-0", "-q", "-r", zipOut, "."], source);
    const zipSync = zip + timed("sync", [zipOut], run);
    fs.rmSync(zipOut);
    const copy = path.join(run, "cp-copy");
    const cp = timed("cp", ["-r", source, copy], run);
    const cpSync = cp + timed("sh", ["-c", `find "${copy}" -type f -exec sync {} +`], run);
    return { zip, zipSync, cp, cpSync };
  } finally {
    fs.rmSync(run, { recursive: true, force: true });
  }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

async function main() {
  // The two sets take turns, so a slow minute of the machine does not fall on one set only.
  const sets = SETS.map((set) => prepareSet(set.files, set.bytes));
  const publishes: Publish[][] = sets.map(() => []);
  for (let round = 0; round < ROUNDS; round++)
    for (const [i, set] of sets.entries()) publishes[i].push(await publishOnce(set));
  const results: SetResult[] = sets.map((set, i) => ({
    files: set.files,
    bytes: set.bytes,
    publishes: publishes[i],
    ...baselines(set),
  }));
  console.log(
    `\n| data set | MB | publish s after a start (median of ${ROUNDS}; each run) | again in that server | MB/s (again) | \`zip -0\` s (+ sync) | publish ÷ \`zip -0\` | \`cp -r\` s (+ sync) | server peak RSS (most) |`,
  );
  console.log("|---|---|---|---|---|---|---|---|---|");
  const each = (publishes: Publish[], key: "seconds" | "again") => publishes.map((p) => p[key]);
  for (const r of results) {
    const total = mb(r.files * r.bytes);
    const first = median(each(r.publishes, "seconds"));
    const again = median(each(r.publishes, "again"));
    const runs = (key: "seconds" | "again") =>
      each(r.publishes, key)
        .map((v) => v.toFixed(2))
        .join(", ");
    const peak = Math.max(...r.publishes.map((p) => p.peakMb));
    console.log(
      `| ${r.files.toLocaleString("en")} × ${r.bytes / 1000} kB | ${total.toFixed(0)} | ${first.toFixed(2)} (${runs("seconds")}) | ${again.toFixed(2)} (${runs("again")}) | ${(total / first).toFixed(0)} (${(total / again).toFixed(0)}) | ${r.zip.toFixed(2)} (${r.zipSync.toFixed(2)}) | ${(r.zip / first).toFixed(2)}× | ${r.cp.toFixed(2)} (${r.cpSync.toFixed(2)}) | ${peak.toFixed(0)} MB |`,
    );
  }
  const [small, large] = results;
  for (const [key, label] of [
    ["seconds", "after a start"],
    ["again", "again in the same server"],
  ] as const) {
    const ratio = median(each(small.publishes, key)) / median(each(large.publishes, key));
    const perRound = small.publishes.map((p, i) => (p[key] / large.publishes[i][key]).toFixed(2)).join(", ");
    console.log(
      `Many small files ÷ few large files, same bytes, ${label}: publish ${ratio.toFixed(2)}× the time (target ≤ 1.5×; each round ${perRound})`,
    );
  }
  console.log(`zip -0 ${(small.zip / large.zip).toFixed(2)}×; cp -r ${(small.cp / large.cp).toFixed(2)}×`);
  console.log(loadAverageLine());
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
