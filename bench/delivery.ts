/**
 * Delivery benchmark: `npx tsx bench/delivery.ts` (BENCH_SECONDS per run, default 6; BENCH_ROUNDS,
 * default 3; BENCH_DB=pg).
 *
 * Publishes 24 camera-sized JPEGs (3-5 MB, generated once into bench/.data/delivery-photos)
 * through a real server started as `npm start` starts it, then drives what a client's browser asks
 * for with wrk (one thread; a Lua script rotating the photo numbers): full photos and thumbnails
 * with 32 connections, the ZIP with 4. The same files (hard links: the same inodes, the same page
 * cache) are served in the same run by nginx (one worker, sendfile on), nginx with sendfile off
 * and 1 MiB buffers, and a bare express.static; then Photodrop again behind that nginx with
 * SENDFILE_HEADER=X-Accel-Redirect, beside bench/bare-accel-server.ts behind the same nginx (the
 * floor of deciding in Node: a handler that only names the file) and a second nginx that names the
 * file (the most any upstream can reach on the machine). Each row runs every server once
 * per round, in turn, and shows the median run. BENCH_ONLY=thumbnails, photos or ZIP runs one
 * row. Prints MB/s, req/s, shares of nginx, errors, p99, the CPU each process used (to show what
 * the limit was) and the server's peak RSS while serving.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { openDatabase } from "../server/db/database";
import { freePort } from "../server/test/free-port";
import { startNginx } from "../server/test/nginx";
import { memoryOf, resetPeakMemory } from "../server/test/app-process";
import { dataFoldersAt, docsBlock, upstreamAt } from "../server/test/docs-site";
import { BENCH_ADMIN, BENCH_ADMIN_ENV, benchApi, benchSignIn } from "./bench-api";
import { benchDatabase, benchServerEnv } from "./bench-database";
import { until } from "../server/test/wait";
import { root, startBenchProcess, startProductionServer, type ProductionServer } from "./bench-process";
import { ensurePhotos } from "./photos";
import { runWrk, type WrkResult } from "./wrk";
import { loadAverageLine, untilIdle } from "./machine";

const PHOTOS = 24;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 6);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);

interface Row {
  label: string;
  unit: "MB/s" | "req/s";
  connections: number;
  /** Path of the n-th file (1-based) on the site folder and under the delivery link. */
  site: (n: number) => string;
  photodrop: (token: string, n: number) => string;
  files: number;
}

const ALL_ROWS: Row[] = [
  {
    label: "full photos (`/d/{token}/p/{n}`)",
    unit: "MB/s",
    connections: 32,
    site: (n) => `/p/${n}`,
    photodrop: (t, n) => `/d/${t}/p/${n}`,
    files: PHOTOS,
  },
  {
    label: "thumbnails (`/d/{token}/t/{n}`)",
    unit: "req/s",
    connections: 32,
    site: (n) => `/t/${n}`,
    photodrop: (t, n) => `/d/${t}/t/${n}`,
    files: PHOTOS,
  },
  {
    label: "the ZIP (`/d/{token}/all.zip`)",
    unit: "MB/s",
    connections: 4,
    site: () => "/all.zip",
    photodrop: (t) => `/d/${t}/all.zip`,
    files: 1,
  },
];
/** BENCH_ONLY=thumbnails (or photos, ZIP) runs that row alone. */
const ROWS = ALL_ROWS.filter((row) => row.label.includes(process.env.BENCH_ONLY ?? ""));

/** Signs in, uploads the photos to a new project, publishes it and asks for every thumbnail once. */
async function publish(base: string, files: string[]): Promise<{ projectId: number; token: string }> {
  const accessToken = await benchSignIn(base, BENCH_ADMIN);
  const auth = { Authorization: `Bearer ${accessToken}` };
  const json = { ...auth, "Content-Type": "application/json" };
  const project = await benchApi<{ id: number }>(
    base,
    "/api/projects",
    { method: "POST", headers: json, body: JSON.stringify({ name: "Delivery benchmark" }) },
    201,
  );
  for (const file of files) {
    const form = new FormData();
    form.append("file", await fs.openAsBlob(file, { type: "image/jpeg" }), path.basename(file));
    await benchApi(
      base,
      `/api/attachments/projects/${project.id}/upload`,
      { method: "POST", headers: auth, body: form },
      201,
    );
  }
  await benchApi(base, `/api/projects/${project.id}/publish`, { method: "POST", headers: auth }, 202);
  const state = await until(
    () =>
      benchApi<{ publishStatus: string; deliveryUrl: string | null }>(
        base,
        `/api/projects/${project.id}`,
        { headers: auth },
        200,
      ),
    (s) => s.publishStatus !== "publishing",
    120_000,
  );
  if (!state.deliveryUrl) throw new Error(`the publish ended ${state.publishStatus}`);
  const token = state.deliveryUrl.split("/").pop()!;
  for (let n = 1; n <= files.length; n++) await (await fetch(`${base}/d/${token}/t/${n}`)).arrayBuffer();
  return { projectId: project.id, token };
}

/** The stored photos, thumbnails and ZIP hard-linked as p/<n>, t/<n> and all.zip: what nginx and express.static serve. */
async function linkSite(work: string, databaseUrl: string, projectId: number, token: string): Promise<string> {
  const site = path.join(work, "site");
  for (const sub of ["p", "t"]) fs.mkdirSync(path.join(site, sub), { recursive: true });
  const db = openDatabase(databaseUrl);
  const rows = await db("attachments")
    .where({ project_id: projectId })
    .orderBy([{ column: "created_at" }, { column: "id" }])
    .select("storage_key", "thumbnail_key");
  await db.destroy();
  rows.forEach((row: { storage_key: string; thumbnail_key: string }, i: number) => {
    fs.linkSync(path.join(work, "uploads", row.storage_key), path.join(site, "p", String(i + 1)));
    fs.linkSync(path.join(work, "uploads", row.thumbnail_key), path.join(site, "t", String(i + 1)));
  });
  fs.linkSync(path.join(work, "published", `${token}.zip`), path.join(site, "all.zip"));
  return site;
}

/** Each server's wrk runs of one row, one per round. */
type Runs = Record<string, WrkResult[]>;

/** Runs each of `runs` once per round, in turn, so that a slow spell of the machine falls on all of them alike. */
async function inRounds(runs: Record<string, () => Promise<WrkResult>>): Promise<Runs> {
  const done: Runs = Object.fromEntries(Object.keys(runs).map((name) => [name, []]));
  for (let round = 0; round < ROUNDS; round++)
    for (const [name, run] of Object.entries(runs)) done[name].push(await run());
  return done;
}

const paths = (row: Row, at: (n: number) => string) => Array.from({ length: row.files }, (_, i) => at(i + 1));
const figure = (row: Row, r: WrkResult) => (row.unit === "MB/s" ? r.mbps : r.rps);
const share = (row: Row, r: WrkResult, of: WrkResult) => `${Math.round((figure(row, r) / figure(row, of)) * 100)}%`;
const show = (row: Row, r: WrkResult) => `${Math.round(figure(row, r)).toLocaleString("en")} ${row.unit}`;
/** The run of the middle figure (the lower middle of an even count). */
const median = (row: Row, runs: WrkResult[]) =>
  [...runs].sort((a, b) => figure(row, a) - figure(row, b))[Math.floor((runs.length - 1) / 2)];

async function main() {
  const files = await ensurePhotos(path.join(root, "bench/.data/delivery-photos"), PHOTOS, 3, 5);
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "photodrop-bench-delivery-"));
  const database = await benchDatabase(work);
  const env = {
    ...benchServerEnv(work, database.url),
    ...BENCH_ADMIN_ENV,
  };
  const stops: Array<() => Promise<void>> = [];
  let server: ProductionServer | undefined;
  try {
    server = await startProductionServer(env, path.join(work, "photodrop.log"));
    const { projectId, token } = await publish(server.url, files);
    const site = await linkSite(work, database.url, projectId, token);
    await untilIdle(server.pid);
    const [port, plainPort] = [await freePort(), await freePort()];
    const nginx = await startNginx(
      path.join(work, "nginx"),
      `server { listen 127.0.0.1:${port}; root ${site}; }
       server { listen 127.0.0.1:${plainPort}; root ${site}; sendfile off; output_buffers 2 1m; }`,
      [port, plainPort],
    );
    stops.push(() => nginx.stop());
    const bare = startBenchProcess(
      ["bench/bare-static-server.ts", site],
      (line) => line.match(/running at (\S+)/)?.[1],
    );
    stops.push(() => bare.stop());
    const bareUrl = await bare.ready;

    const results = new Map<Row, Runs>();
    resetPeakMemory(server.pid);
    for (const row of ROWS) {
      const run = (base: string, at: (n: number) => string, watch: Record<string, number | undefined>) => () =>
        runWrk({ base, paths: paths(row, at), connections: row.connections, seconds: SECONDS, watch });
      const worker = { nginx: nginx.workerPid() };
      results.set(
        row,
        await inRounds({
          nginx: run(`http://127.0.0.1:${port}`, row.site, worker),
          nginxPlain: run(`http://127.0.0.1:${plainPort}`, row.site, worker),
          bare: run(bareUrl, row.site, { server: bare.child.pid }),
          photodrop: run(server.url, (n) => row.photodrop(token, n), { server: server.pid }),
        }),
      );
    }
    const serving = memoryOf(server.pid);
    await server.stop();

    // Again behind nginx, which sends the photos and thumbnails itself.
    server = await startProductionServer(
      { ...env, SENDFILE_HEADER: "X-Accel-Redirect", TRUST_PROXY: "1" },
      path.join(work, "photodrop-accel.log"),
    );
    const bareAccel = startBenchProcess(["bench/bare-accel-server.ts"], (line) => line.match(/running at (\S+)/)?.[1]);
    stops.push(() => bareAccel.stop());
    const namingPort = await freePort();
    const naming = await startNginx(path.join(work, "nginx-naming"), namingSite(namingPort), [namingPort]);
    stops.push(() => naming.stop());
    const [accelPort, bareAccelPort, nginxAccelPort] = [await freePort(), await freePort(), await freePort()];
    const proxied = await startNginx(
      path.join(work, "nginx-accel"),
      proxySite(accelPort, server.url, work) +
        bareProxySite(bareAccelPort, "bare", new URL(await bareAccel.ready).host, site) +
        bareProxySite(nginxAccelPort, "naming", `127.0.0.1:${namingPort}`, site),
      [accelPort, bareAccelPort, nginxAccelPort],
    );
    stops.push(() => proxied.stop());
    for (const row of ROWS) {
      const behind = (port: number, upstream: Record<string, number | undefined>) => () =>
        runWrk({
          base: `http://127.0.0.1:${port}`,
          paths: paths(row, (n) => row.photodrop(token, n)),
          connections: row.connections,
          seconds: SECONDS,
          watch: { nginx: proxied.workerPid(), ...upstream },
        });
      Object.assign(
        results.get(row)!,
        await inRounds({
          nginxAccel: behind(nginxAccelPort, { upstream: naming.workerPid() }),
          bareAccel: behind(bareAccelPort, { server: bareAccel.child.pid }),
          accel: behind(accelPort, { server: server.pid }),
        }),
      );
    }
    report(results, serving);
  } finally {
    await server?.stop();
    for (const stop of stops.reverse()) await stop().catch(() => undefined);
    await database.stop();
    fs.rmSync(work, { recursive: true, force: true });
  }
}

/** nginx in front of Photodrop with docs/behind-nginx.md's upstream and locations as written there (its site without TLS). */
function proxySite(port: number, upstream: string, work: string): string {
  return proxiedServer(port, [
    docsBlock("upstream photodrop {", upstreamAt(new URL(upstream).host)),
    docsBlock("    location / {"),
    docsBlock(
      "    location /_photodrop_files/ {",
      dataFoldersAt(path.join(work, "uploads"), path.join(work, "published")),
    ),
  ]);
}

/**
 * The same proxying in front of an upstream at `address` (`host:port`) that only names the file
 * (`name`: bench/bare-accel-server.ts or `namingSite`), whose `/_bare/` is the site folder.
 */
function bareProxySite(port: number, name: string, address: string, site: string): string {
  const renamed: Array<[string, string]> = [
    ["upstream photodrop", `upstream ${name}`],
    ["http://photodrop", `http://${name}`],
    ...upstreamAt(address),
  ];
  return proxiedServer(port, [
    docsBlock(`upstream ${name} {`, renamed),
    docsBlock("    location / {", renamed),
    `location /_bare/ { internal; alias ${site}/; }`,
  ]);
}

/**
 * A second nginx as the upstream that costs least: it names the file as bench/bare-accel-server.ts
 * does, in C and without a body. What the nginx in front reaches with it is the most any upstream can
 * reach on this machine.
 */
function namingSite(port: number): string {
  const naming = (pattern: string, target: string) =>
    `location ~ ${pattern} { add_header X-Accel-Redirect ${target}; return 200 ""; }`;
  return `server {
  listen 127.0.0.1:${port};
  ${naming("^/d/[^/]+/([pt])/(\\d+)$", "/_bare/$1/$2")}
  ${naming("^/d/[^/]+/all\\.zip$", "/_bare/all.zip")}
}
`;
}

/** An upstream block and a plain-HTTP server on `port` around the locations. */
function proxiedServer(port: number, [upstream, ...locations]: string[]): string {
  return `${upstream}
server {
  listen 127.0.0.1:${port};
${locations.join("\n")}
}
`;
}

const NAMES: Record<string, string> = {
  nginx: "nginx",
  nginxPlain: "nginx, sendfile off",
  bare: "bare express.static",
  photodrop: "Photodrop",
  nginxAccel: "nginx naming the file, behind nginx",
  bareAccel: "bare handler behind nginx",
  accel: "Photodrop behind nginx",
};
/** The summary table's columns, in order; those in SHARED are followed by their share of nginx. */
const COLUMNS = Object.keys(NAMES);
const SHARED = new Set(["photodrop", "nginxAccel", "bareAccel", "accel"]);

function report(results: Map<Row, Runs>, serving: { peak: number }) {
  console.log(
    `\nwrk, one thread, ${SECONDS} s per run, ${ROUNDS} rounds (the median run of each shown); ${PHOTOS} JPEGs of 3-5 MB; Photodrop started as \`npm start\` starts it\n`,
  );
  const headings = COLUMNS.map((name) => (SHARED.has(name) ? `${NAMES[name]} | share of nginx` : NAMES[name]));
  console.log(`| what the client's browser asks for | ${headings.join(" | ")} |`);
  console.log(`|---|${"---|".repeat(COLUMNS.length + SHARED.size)}`);
  for (const [row, runs] of results) {
    const m = Object.fromEntries(Object.entries(runs).map(([name, r]) => [name, median(row, r)]));
    const cells = COLUMNS.map((name) =>
      SHARED.has(name) ? `${show(row, m[name])} | ${share(row, m[name], m.nginx)}` : show(row, m[name]),
    );
    console.log(`| ${row.label} | ${cells.join(" | ")} |`);
  }
  console.log("\nEvery round (the share is of nginx's run in the same round):\n");
  console.log(`| run | ${Array.from({ length: ROUNDS }, (_, i) => `round ${i + 1}`).join(" | ")} |`);
  console.log(`|---|${"---|".repeat(ROUNDS)}`);
  for (const [row, runs] of results) {
    for (const [name, r] of Object.entries(runs)) {
      const cells = r.map((run, i) =>
        name === "nginx" ? show(row, run) : `${show(row, run)} (${share(row, run, runs.nginx[i])})`,
      );
      console.log(`| ${row.label}, ${NAMES[name]} | ${cells.join(" | ")} |`);
    }
  }
  console.log(
    "\nCPU during the median run (% of one core; two cores in all), p99 of that run, errors over every round (socket errors and answers >= 400):\n",
  );
  console.log("| run | server CPU | wrk CPU | p99 ms | errors |\n|---|---|---|---|---|");
  for (const [row, runs] of results) {
    for (const [name, r] of Object.entries(runs)) {
      const run = median(row, r);
      const server = Object.entries(run.cpu)
        .filter(([n]) => n !== "wrk")
        .map(([n, v]) => `${n} ${v}%`)
        .join(", ");
      const errors = r.reduce((sum, each) => sum + each.errors, 0);
      console.log(
        `| ${row.label}, ${NAMES[name]} | ${server} | ${run.cpu.wrk}% | ${run.p99ms.toFixed(1)} | ${errors} |`,
      );
    }
  }
  console.log(
    `\nPhotodrop's peak RSS while serving (VmHWM since the first run): ${(serving.peak / 1048576).toFixed(0)} MB`,
  );
  console.log(loadAverageLine());
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
