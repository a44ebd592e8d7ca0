/**
 * `npx tsx bench/storage.ts`: uploads, downloads and publishing through object storage against
 * the same through the disk, in one run (issue 23). The S3 server is s3rver (an S3 protocol
 * server in Node, in a process of its own, its objects in a temp folder): the same one the tests
 * use, not a production object store, so its own speed is measured too, with the AWS SDK putting
 * and getting the same files directly. Photodrop runs as `npm start` runs it, once with the
 * folders and once with `STORAGE_URL`; 4 requests at a time.
 */
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { GetObjectCommand, PutObjectCommand, S3Client } from "@aws-sdk/client-s3";
import { S3_TEST_CREDENTIALS } from "../server/test/s3-server";
import { until } from "../server/test/wait";
import { BENCH_ADMIN, BENCH_ADMIN_ENV, benchApi, benchSignIn } from "./bench-api";
import { benchDatabase, benchServerEnv } from "./bench-database";
import { root, startBenchProcess, startProductionServer } from "./bench-process";
import { inParallel } from "./in-parallel";
import { loadAverageLine } from "./machine";
import { ensurePhotos } from "./photos";
import { cpuSecondsOf } from "./wrk";

const FILES = Number(process.env.BENCH_FILES ?? 40);
const PARALLEL = 4;
const MB = 1e6;

interface Figures {
  upload: number;
  download: number;
  publish?: number;
  publishNote?: string;
  serverCpu?: number;
}

async function drain(res: Response, what: string): Promise<void> {
  if (!res.ok) throw new Error(`${what}: ${res.status} ${await res.text()}`);
  await res.arrayBuffer();
}

/** Photodrop with the folders or with STORAGE_URL: upload every file, download each, publish. */
async function throughPhotodrop(files: string[], storageEnv: Record<string, string>, label: string): Promise<Figures> {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), `photodrop-bench-storage-${label}-`));
  const database = await benchDatabase(work);
  const env = {
    ...benchServerEnv(work, database.url),
    ...storageEnv,
    ...BENCH_ADMIN_ENV,
  };
  const server = await startProductionServer(env, path.join(work, "photodrop.log"));
  try {
    const auth = { Authorization: `Bearer ${await benchSignIn(server.url, BENCH_ADMIN)}` };
    const json = { ...auth, "Content-Type": "application/json" };
    const project = await benchApi<{ id: number }>(
      server.url,
      "/api/projects",
      { method: "POST", headers: json, body: JSON.stringify({ name: `Storage benchmark (${label})` }) },
      201,
    );
    const cpuBefore = cpuSecondsOf(server.pid);
    const ids: number[] = [];
    const upload = await inParallel(files, PARALLEL, async (file) => {
      const form = new FormData();
      form.append("file", await fs.openAsBlob(file, { type: "image/jpeg" }), path.basename(file));
      const res = await fetch(`${server.url}/api/attachments/projects/${project.id}/upload`, {
        method: "POST",
        headers: auth,
        body: form,
      });
      if (res.status !== 201) throw new Error(`upload: ${res.status} ${await res.text()}`);
      ids.push(((await res.json()) as { id: number }).id);
    });
    const download = await inParallel(ids, PARALLEL, async (id) =>
      drain(await fetch(`${server.url}/api/attachments/${id}/download`, { headers: auth }), "download"),
    );
    const serverCpu = cpuSecondsOf(server.pid) - cpuBefore;
    const started = performance.now();
    const res = await fetch(`${server.url}/api/projects/${project.id}/publish`, { method: "POST", headers: auth });
    if (res.status !== 202) return { upload, download, serverCpu, publishNote: `refused (${res.status})` };
    const state = await until(
      () => benchApi<{ publishStatus: string }>(server.url, `/api/projects/${project.id}`, { headers: auth }, 200),
      (s) => s.publishStatus !== "publishing",
      300_000,
    );
    if (state.publishStatus !== "published")
      return { upload, download, serverCpu, publishNote: `ended ${state.publishStatus}` };
    return { upload, download, serverCpu, publish: (performance.now() - started) / 1000 };
  } finally {
    await server.stop();
    await database.stop();
    fs.rmSync(work, { recursive: true, force: true });
  }
}

/** The S3 server alone: the same files put and got with the AWS SDK, PARALLEL at a time. */
async function s3Alone(files: string[], endpoint: string, bucket: string): Promise<Figures> {
  const client = new S3Client({
    endpoint,
    region: "us-east-1",
    forcePathStyle: true,
    credentials: S3_TEST_CREDENTIALS,
  });
  const key = (file: string) => `alone/${path.basename(file)}`;
  try {
    const upload = await inParallel(files, PARALLEL, async (file) => {
      await client.send(
        new PutObjectCommand({
          Bucket: bucket,
          Key: key(file),
          Body: fs.createReadStream(file),
          ContentLength: fs.statSync(file).size,
        }),
      );
    });
    const download = await inParallel(files, PARALLEL, async (file) => {
      const answer = await client.send(new GetObjectCommand({ Bucket: bucket, Key: key(file) }));
      for await (const chunk of answer.Body as NodeJS.ReadableStream) void chunk;
    });
    return { upload, download };
  } finally {
    client.destroy();
  }
}

async function main() {
  const files = (await ensurePhotos(path.join(root, "bench/.data/upload-photos"), 200, 3, 8)).slice(0, FILES);
  const bytes = files.reduce((sum, f) => sum + fs.statSync(f).size, 0);
  const s3 = startBenchProcess(
    ["bench/s3-server-process.ts"],
    (line) => line.match(/running at (\S+) bucket (\S+)/) ?? undefined,
  );
  try {
    const [, endpoint, bucket] = await s3.ready;
    const s3Env = {
      STORAGE_URL: `s3://${bucket}/bench-${crypto.randomBytes(4).toString("hex")}`,
      S3_ENDPOINT: endpoint,
      S3_REGION: "us-east-1",
      S3_ACCESS_KEY_ID: S3_TEST_CREDENTIALS.accessKeyId,
      S3_SECRET_ACCESS_KEY: S3_TEST_CREDENTIALS.secretAccessKey,
      S3_FORCE_PATH_STYLE: "1",
    };
    const rows: Array<[string, Figures]> = [
      ["Photodrop, the folders", await throughPhotodrop(files, {}, "disk")],
      ["Photodrop, object storage (s3rver)", await throughPhotodrop(files, s3Env, "s3")],
      ["s3rver alone (AWS SDK put and get)", await s3Alone(files, endpoint, bucket)],
    ];
    const rate = (seconds: number | undefined) => (seconds === undefined ? "—" : (bytes / MB / seconds).toFixed(1));
    console.log(
      `\n${files.length} JPEGs, ${(bytes / MB).toFixed(0)} MB; ${PARALLEL} at a time; Photodrop as \`npm start\` runs it, sqlite`,
    );
    console.log("| through | upload MB/s | download MB/s | publish (ZIP) MB/s | Photodrop CPU for upload + download |");
    console.log("|---|---|---|---|---|");
    for (const [label, f] of rows)
      console.log(
        `| ${label} | ${rate(f.upload)} | ${rate(f.download)} | ${f.publishNote ?? rate(f.publish)} | ${f.serverCpu === undefined ? "—" : `${f.serverCpu.toFixed(1)} s`} |`,
      );
    console.log(`\n${loadAverageLine()}`);
  } finally {
    await s3.stop();
  }
}

await main();
