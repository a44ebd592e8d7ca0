/**
 * Uploads 200 photo-sized JPEGs (3-8 MB) to a real server process, 4 at a time over loopback,
 * beside `cp` of the same files, and reads the server's resident memory from /proc.
 * Run: npx tsx bench/upload.ts   (the photos are generated once into bench/.data/ and reused)
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import sharp from "sharp";
import { benchDatabase } from "./bench-database";

const FILES = 200;
const PARALLEL = 4;
const MB = 1e6;
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const photoDir = path.join(root, "bench/.data/upload-photos");

/**
 * Random pixels enlarged 3x: grain like a high-ISO photo that does not compress small (about
 * 0.58 bytes a pixel at quality 92), so a 3-8 MB file has a camera's 5-14 megapixels.
 */
async function renderPhoto(targetBytes: number): Promise<Buffer> {
  const width = Math.round(Math.sqrt(((targetBytes / 0.58) * 4) / 3));
  const height = Math.round((width * 3) / 4);
  const [w, h] = [Math.ceil(width / 3), Math.ceil(height / 3)];
  return sharp(crypto.randomBytes(w * h * 3), { raw: { width: w, height: h, channels: 3 } })
    .resize(width, height, { kernel: "cubic" })
    .jpeg({ quality: 92 })
    .toBuffer();
}

async function ensurePhotos(): Promise<string[]> {
  fs.mkdirSync(photoDir, { recursive: true });
  const files: string[] = [];
  for (let i = 0; i < FILES; i++) {
    const file = path.join(photoDir, `photo-${String(i).padStart(3, "0")}.jpg`);
    files.push(file);
    if (fs.existsSync(file)) continue;
    // Sizes spread evenly over 3-8 MB, in a shuffled order.
    fs.writeFileSync(`${file}.part`, await renderPhoto((3 + (5 * ((i * 37) % FILES)) / FILES) * MB));
    fs.renameSync(`${file}.part`, file);
    if (i % 20 === 19) console.log(`generated ${i + 1}/${FILES} photos`);
  }
  return files;
}

function memoryOf(pid: number) {
  const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = (name: string) => Number(status.match(new RegExp(`^${name}:\\s+(\\d+) kB`, "m"))?.[1] ?? NaN);
  return { rssMb: kb("VmRSS") / 1024, peakMb: kb("VmHWM") / 1024 };
}

function startServer(
  work: string,
  databaseUrl: string,
  admin: { email: string; password: string },
): Promise<{ child: ChildProcess; base: string }> {
  const child = spawn(process.execPath, ["--import", "tsx", "server/index.ts"], {
    cwd: root,
    env: {
      ...process.env,
      PORT: "0",
      HOST: "127.0.0.1",
      DATABASE_URL: databaseUrl,
      UPLOADS_DIR: path.join(work, "uploads"),
      PUBLISHED_DIR: path.join(work, "published"),
      SEED_DEMO: "0",
      LOG_LEVEL: "warn",
      ADMIN_EMAIL: admin.email,
      ADMIN_PASSWORD: admin.password,
    },
    stdio: ["ignore", "pipe", "inherit"],
  });
  return new Promise((resolve, reject) => {
    let output = "";
    child.stdout!.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      const url = output.match(/running at (http:\/\/\S+)/)?.[1];
      if (url) resolve({ child, base: url });
    });
    child.once("exit", (code) => reject(new Error(`server exited with ${code} before listening`)));
  });
}

async function api<T>(base: string, route: string, init: RequestInit, expected: number): Promise<T> {
  const res = await fetch(`${base}${route}`, init);
  if (res.status !== expected) throw new Error(`${init.method ?? "GET"} ${route}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

async function main() {
  const files = await ensurePhotos();
  const totalBytes = files.reduce((sum, f) => sum + fs.statSync(f).size, 0);
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "photodrop-bench-upload-"));
  const admin = { email: "bench@photodrop.local", password: crypto.randomBytes(12).toString("base64url") };
  const database = await benchDatabase(work);
  console.log(`database: ${database.label}`);
  const { child, base } = await startServer(work, database.url, admin);
  try {
    const pid = child.pid!;
    const session = await api<{ accessToken: string }>(
      base,
      "/api/auth/login",
      {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify(admin),
      },
      200,
    );
    const auth = { Authorization: `Bearer ${session.accessToken}` };
    const project = await api<{ id: number }>(
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

    let next = 0;
    let done = 0;
    let afterFifty = idle;
    const started = performance.now();
    const worker = async () => {
      while (next < files.length) {
        const file = files[next++];
        const form = new FormData();
        // A file-backed Blob: fetch streams it from disk, so the client never holds all photos.
        form.append("file", await fs.openAsBlob(file, { type: "image/jpeg" }), path.basename(file));
        await api(
          base,
          `/api/attachments/projects/${project.id}/upload`,
          { method: "POST", headers: auth, body: form },
          201,
        );
        if (++done === 50) afterFifty = memoryOf(pid);
      }
    };
    await Promise.all(Array.from({ length: PARALLEL }, worker));
    const uploadSeconds = (performance.now() - started) / 1000;
    const afterAll = memoryOf(pid);

    const list = await fetch(`${base}/api/attachments?projectId=${project.id}&_start=0&_end=1`, { headers: auth });
    const stored = Number(list.headers.get("x-total-count"));
    const leftovers = fs.readdirSync(path.join(work, "uploads/.tmp"), { recursive: true });

    const copyDir = path.join(work, "cp");
    fs.mkdirSync(copyDir);
    const copyStarted = performance.now();
    const cp = spawnSync("cp", [...files, copyDir]);
    if (cp.status !== 0) throw new Error(`cp failed: ${cp.stderr}`);
    const copySeconds = (performance.now() - copyStarted) / 1000;

    const rate = (seconds: number) => (totalBytes / MB / seconds).toFixed(1);
    console.log(
      `\n${FILES} JPEGs, ${(totalBytes / MB).toFixed(0)} MB in all (${(totalBytes / FILES / MB).toFixed(1)} MB average)`,
    );
    console.log(`stored: ${stored} attachments; left in UPLOADS_DIR/.tmp: ${leftovers.length}`);
    console.log("| case | seconds | MB/s |\n|---|---|---|");
    console.log(
      `| upload, ${PARALLEL} in parallel over loopback | ${uploadSeconds.toFixed(1)} | ${rate(uploadSeconds)} |`,
    );
    console.log(`| \`cp\` of the same files | ${copySeconds.toFixed(1)} | ${rate(copySeconds)} |`);
    console.log("\n| server memory | RSS MB | peak RSS (VmHWM) MB |\n|---|---|---|");
    console.log(`| idle, before uploading | ${idle.rssMb.toFixed(0)} | ${idle.peakMb.toFixed(0)} |`);
    console.log(`| after 50 files | ${afterFifty.rssMb.toFixed(0)} | ${afterFifty.peakMb.toFixed(0)} |`);
    console.log(`| after ${FILES} files | ${afterAll.rssMb.toFixed(0)} | ${afterAll.peakMb.toFixed(0)} |`);
    console.log(
      `\nload average during the run: ${os
        .loadavg()
        .map((l) => l.toFixed(1))
        .join(" ")} on ${os.cpus().length} cores`,
    );
  } finally {
    if (child.exitCode === null) {
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      await exited;
    }
    await database.stop();
    fs.rmSync(work, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
