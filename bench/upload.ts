/**
 * Uploads 200 photo-sized JPEGs (3-8 MB) to a real server process started as `npm start` starts
 * it (bench/bench-process.ts; BENCH_START to compare other settings), 4 at a time over loopback,
 * then the same files from the same client to a bare express-fileupload handler (the baseline,
 * bench/bare-upload-server.ts), beside `cp` of the same files; reads each server's CPU time and
 * the real server's resident memory from /proc.
 * Run: npx tsx bench/upload.ts   (the photos are generated once into bench/.data/ and reused)
 * With BENCH_PHOTOS_DIR=<folder>, every JPEG in that folder is sent instead (your own camera's photos).
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { BENCH_ADMIN, benchApi, benchSignIn } from "./bench-api";
import { benchDatabase, benchServerEnv } from "./bench-database";
import { cpuSecondsOf } from "./wrk";
import { memoryOf as processMemory } from "../server/test/app-process";
import { root, productionStart, startBenchProcess, startProductionServer } from "./bench-process";
import { ensurePhotos, photosIn } from "./photos";
import { inParallel } from "./in-parallel";
import { loadAverageLine } from "./machine";

const FILES = 200;
const PARALLEL = 4;
const MB = 1e6;
const photoDir = path.join(root, "bench/.data/upload-photos");

/** The server's memory in MB, now and at its peak. */
function memoryOf(pid: number) {
  const { rss, peak } = processMemory(pid);
  return { rssMb: rss / 1048576, peakMb: peak / 1048576 };
}

/** Photodrop itself, as `npm start` runs it (the build, node flags and MALLOC_* settings), with an admin to sign in as. */
function startServer(work: string, databaseUrl: string, admin: { email: string; password: string }) {
  return startProductionServer(
    {
      ...benchServerEnv(work, databaseUrl),
      ADMIN_EMAIL: admin.email,
      ADMIN_PASSWORD: admin.password,
    },
    path.join(work, "photodrop.log"),
  );
}

/** A server process, once it prints `running at <url>`. */
async function startListening(args: string[], env: Record<string, string>) {
  const server = startBenchProcess(args, (line) => line.match(/running at (http:\/\/\S+)/)?.[1], { env });
  return { ...server, base: await server.ready };
}

/** Sends every file, each in its own request; calls `each` after every answer. Answers the seconds taken. */
function uploadAll(files: string[], url: string, headers: Record<string, string>, each: (done: number) => void) {
  let done = 0;
  return inParallel(files, PARALLEL, async (file) => {
    const form = new FormData();
    // A file-backed Blob: fetch streams it from disk, so the client never holds all photos.
    form.append("file", await fs.openAsBlob(file, { type: "image/jpeg" }), path.basename(file));
    const res = await fetch(url, { method: "POST", headers, body: form });
    if (res.status !== 201) throw new Error(`POST ${url}: ${res.status} ${await res.text()}`);
    await res.arrayBuffer();
    each(++done);
  });
}

/** GETs every URL; answers the seconds taken. */
function fetchAll(urls: string[]) {
  return inParallel(urls, PARALLEL, async (url) => {
    const res = await fetch(url);
    if (res.status !== 200) throw new Error(`GET ${url}: ${res.status}`);
    await res.arrayBuffer();
  });
}

async function main() {
  const files = process.env.BENCH_PHOTOS_DIR
    ? photosIn(process.env.BENCH_PHOTOS_DIR)
    : await ensurePhotos(photoDir, FILES, 3, 8);
  const totalBytes = files.reduce((sum, f) => sum + fs.statSync(f).size, 0);
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "photodrop-bench-upload-"));
  const database = await benchDatabase(work);
  console.log(`database: ${database.label}`);
  const server = await startServer(work, database.url, BENCH_ADMIN);
  const { child, url: base } = server;
  try {
    const pid = child.pid!;
    const auth = { Authorization: `Bearer ${await benchSignIn(base, BENCH_ADMIN)}` };
    const project = await benchApi<{ id: number }>(
      base,
      "/api/projects",
      {
        method: "POST",
        headers: { ...auth, "Content-Type": "application/json" },
        body: JSON.stringify({ name: "Upload benchmark" }),
      },
      201,
    );
    const idle = memoryOf(pid);

    let afterFifty = idle;
    const serverCpuBefore = cpuSecondsOf(pid);
    const uploadSeconds = await uploadAll(
      files,
      `${base}/api/attachments/projects/${project.id}/upload`,
      auth,
      (done) => {
        if (done === 50) afterFifty = memoryOf(pid);
      },
    );
    const afterAll = memoryOf(pid);
    const serverCpu = cpuSecondsOf(pid) - serverCpuBefore;

    const list = await fetch(`${base}/api/attachments?projectId=${project.id}&_start=0&_end=${files.length}`, {
      headers: auth,
    });
    const stored = Number(list.headers.get("x-total-count"));
    const leftovers = fs.readdirSync(path.join(work, "uploads/.tmp"), { recursive: true });
    // Then every thumbnail, as a browser showing the project would ask for them: those the server
    // has not rendered yet in idle time are rendered on demand.
    const thumbnailUrls = ((await list.json()) as Array<{ thumbnailUrl: string }>).map((a) => a.thumbnailUrl);
    const thumbnailCpuBefore = cpuSecondsOf(pid);
    const thumbnailSeconds = await fetchAll(thumbnailUrls.map((url) => `${base}${url}`));
    const thumbnailCpu = cpuSecondsOf(pid) - thumbnailCpuBefore;
    const afterThumbnails = memoryOf(pid);

    const bare = await startListening(["bench/bare-upload-server.ts", path.join(work, "bare")], {});
    let bareSeconds: number;
    let bareCpu: number;
    try {
      const bareCpuBefore = cpuSecondsOf(bare.child.pid!);
      bareSeconds = await uploadAll(files, `${bare.base}/upload`, {}, () => undefined);
      bareCpu = cpuSecondsOf(bare.child.pid!) - bareCpuBefore;
    } finally {
      await bare.stop();
    }

    const copyDir = path.join(work, "cp");
    fs.mkdirSync(copyDir);
    const copyStarted = performance.now();
    const cp = spawnSync("cp", [...files, copyDir]);
    if (cp.status !== 0) throw new Error(`cp failed: ${cp.stderr}`);
    const copySeconds = (performance.now() - copyStarted) / 1000;

    const rate = (seconds: number) => (totalBytes / MB / seconds).toFixed(1);
    const start = productionStart();
    console.log(
      `\nserver started as npm start does: ${Object.entries(start.env)
        .map(([k, v]) => `${k}=${v}`)
        .join(" ")} node ${start.nodeArgs.join(" ")}`,
    );
    console.log(
      `${files.length} JPEGs, ${(totalBytes / MB).toFixed(0)} MB in all (${(totalBytes / files.length / MB).toFixed(1)} MB average)`,
    );
    console.log(`stored: ${stored} attachments; left in UPLOADS_DIR/.tmp: ${leftovers.length}`);
    console.log("| case | seconds | MB/s |\n|---|---|---|");
    console.log(
      `| upload, ${PARALLEL} in parallel over loopback | ${uploadSeconds.toFixed(1)} | ${rate(uploadSeconds)} |`,
    );
    console.log(
      `| bare express-fileupload handler (receive to a temp file, rename), same client | ${bareSeconds.toFixed(1)} | ${rate(bareSeconds)} |`,
    );
    console.log(`| \`cp\` of the same files | ${copySeconds.toFixed(1)} | ${rate(copySeconds)} |`);
    console.log(
      `| then every thumbnail, ${PARALLEL} at a time (rendered on demand unless ready) | ${thumbnailSeconds.toFixed(1)} | |`,
    );
    console.log(`\nupload at ${((bareSeconds / uploadSeconds) * 100).toFixed(0)}% of the bare handler's rate`);
    const perFile = (seconds: number) => ((seconds / files.length) * 1000).toFixed(0);
    console.log(
      `server CPU: ${serverCpu.toFixed(1)} s (${perFile(serverCpu)} ms a file); bare handler: ${bareCpu.toFixed(1)} s (${perFile(bareCpu)} ms a file)`,
    );
    console.log(
      `server CPU for the thumbnails after the uploads: ${thumbnailCpu.toFixed(1)} s (${perFile(thumbnailCpu)} ms a file)`,
    );
    console.log("\n| server memory | RSS MB | peak RSS (VmHWM) MB |\n|---|---|---|");
    console.log(`| idle, before uploading | ${idle.rssMb.toFixed(0)} | ${idle.peakMb.toFixed(0)} |`);
    console.log(`| after 50 files | ${afterFifty.rssMb.toFixed(0)} | ${afterFifty.peakMb.toFixed(0)} |`);
    console.log(`| after ${files.length} files | ${afterAll.rssMb.toFixed(0)} | ${afterAll.peakMb.toFixed(0)} |`);
    console.log(
      `| after every thumbnail | ${afterThumbnails.rssMb.toFixed(0)} | ${afterThumbnails.peakMb.toFixed(0)} |`,
    );
    console.log(`\n${loadAverageLine("during the run")}`);
  } finally {
    await server.stop();
    await database.stop();
    fs.rmSync(work, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
