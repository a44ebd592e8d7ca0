/**
 * `npm run bench:scale [seconds per route]` (`BENCH_DB=pg` for PostgreSQL): a decade of a busy
 * studio — 100,000 projects, 2,000 clients, 1,010,000 photos, one project of 10,000 — made by SQL
 * (bench/scale-data.ts), served by the real server started as `npm start` starts it, and measured
 * with wrk, 32 connections, a different page or query on every request (more paths than the page
 * cache keeps, in a fixed cycle, so none is answered from it), beside a bare Express JSON handler
 * in its own process with the same node flags, measured the same way in the same run. Prints
 * req/s, share of the baseline, p50/p99, the CPU the server and wrk used, the start time over that
 * data and the server's peak RSS.
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { closeContext, createContext } from "../server/bootstrap";
import { loadConfig } from "../server/config";
import { createLogger } from "../server/logger";
import { benchDatabase, benchOnPg, benchServerEnv } from "./bench-database";
import { BENCH_ADMIN, BENCH_ADMIN_ENV, benchSignIn } from "./bench-api";
import { root, productionStart, startAsNpmStart, startBenchProcess } from "./bench-process";
import { loadAverageLine, untilIdle } from "./machine";
import { cpuSecondsOf } from "./wrk";
import { memoryOf } from "../server/test/app-process";
import { BIG_PROJECT, FAMILIES, SCALE, fillScaleDatabase } from "./scale-data";

const SECONDS = Number(process.argv[2] ?? 10);
const WARM_UP_SECONDS = 2;
const CONNECTIONS = 32;
const START_TIMES = 3;
const THREADS = 2;
const PAGE = 25;

interface Route {
  label: string;
  paths: string[];
  /**
   * Answered by a bare Express server of its own, without a token: `plain` is the baseline every
   * share is of; `born` the same handler served as Photodrop serves it (server/http/express-born.ts).
   */
  bare?: "plain" | "born";
}

/** The same order on every run (a fixed shuffle), so runs compare. */
function shuffled<T>(items: T[]): T[] {
  const out = [...items];
  let seed = 12345;
  for (let i = out.length - 1; i > 0; i--) {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    const j = seed % (i + 1);
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

const range = (count: number, from = 0) => Array.from({ length: count }, (_, i) => from + i);
const pages = (count: number) => shuffled(range(Math.ceil(count / PAGE)).map((p) => p * PAGE));
const window = (start: number) => `_start=${start}&_end=${start + PAGE}`;
const NEWEST_FIRST = "_sort=createdAt,id&_order=desc,desc";

function routes(): Route[] {
  const big = SCALE.bigProjectPhotos;
  return [
    { label: "baseline: bare Express, 25 fixed objects", paths: ["/fixed"], bare: "plain" },
    {
      label: "the same, its requests made with Express's prototypes (as Photodrop's server makes them)",
      paths: ["/fixed"],
      bare: "born",
    },
    {
      label: "projects, newest first, any page",
      paths: pages(SCALE.projects).map((s) => `/api/projects?${window(s)}&${NEWEST_FIRST}`),
    },
    {
      label: "projects by name, any page",
      paths: pages(SCALE.projects).map((s) => `/api/projects?${window(s)}&_sort=name&_order=asc`),
    },
    {
      label: "projects of one client (each request another client)",
      paths: shuffled(range(SCALE.clients, 1)).map((c) => `/api/projects?clientId=${c}&${window(0)}&${NEWEST_FIRST}`),
    },
    {
      label: "project search `q` (a family name; pages 1 and 2)",
      paths: shuffled(
        FAMILIES.flatMap((f) =>
          [0, PAGE].map((s) => `/api/projects?q=${encodeURIComponent(f)}&${window(s)}&${NEWEST_FIRST}`),
        ),
      ),
    },
    {
      label: `photos of the ${big.toLocaleString("en")}-photo project, any page`,
      paths: pages(big).map((s) => `/api/attachments?projectId=${BIG_PROJECT}&${window(s)}`),
    },
    {
      label: `photo search by file name in that project`,
      paths: shuffled(range(400)).map(
        (n) =>
          `/api/attachments?projectId=${BIG_PROJECT}&q=${encodeURIComponent(`dossard ${String(n * 7).padStart(4, "0")}`)}&${window(0)}`,
      ),
    },
    {
      label: "photo search by file name, every project",
      paths: shuffled(range(400)).map(
        (n) => `/api/attachments?q=${encodeURIComponent(`IMG_${String(n * 23).padStart(4, "0")}`)}&${window(0)}`,
      ),
    },
    { label: "dashboard stats", paths: ["/api/dashboard/stats"] },
    {
      label: "clients list, four sorts, any page",
      paths: shuffled(
        ["_sort=name&_order=asc", "_sort=name&_order=desc", NEWEST_FIRST, "_sort=projectCount&_order=desc"].flatMap(
          (sort) => pages(SCALE.clients).map((s) => `/api/clients?${window(s)}&${sort}`),
        ),
      ),
    },
    {
      label: "one client with its contacts and projects",
      paths: shuffled(range(SCALE.clients, 1)).map((c) => `/api/clients/${c}`),
    },
    { label: `the ${big.toLocaleString("en")}-photo project's record`, paths: [`/api/projects/${BIG_PROJECT}`] },
  ];
}

/** CPU seconds these processes used since `before` (a snapshot of the same function), counting those alive at both ends. */
function cpuSince(pids: number[], before?: Map<number, number>): Map<number, number> {
  const now = new Map<number, number>();
  for (const pid of pids) {
    try {
      now.set(pid, cpuSecondsOf(pid) - (before?.get(pid) ?? 0));
    } catch {
      // it exited
    }
  }
  if (before) for (const pid of now.keys()) if (!before.has(pid)) now.delete(pid);
  return now;
}
const sum = (values: Map<number, number>) => [...values.values()].reduce((a, b) => a + b, 0);

/** The server's memory in MB: now (VmRSS) or its peak (VmHWM). */
const memoryMb = (pid: number, field: "VmRSS" | "VmHWM") => memoryOf(pid)[field === "VmRSS" ? "rss" : "peak"] / 1048576;

interface WrkResult {
  requests: number;
  seconds: number;
  errors: number;
  non2xx: number;
  p50: number;
  p99: number;
  bytes: number;
  /** CPU seconds wrk itself used. */
  wrkCpu: number;
}

/** wrk with the rotating script; its own CPU time from the shell's `times` (children's user and system). */
function runWrk(base: string, pathsFile: string, auth: string, seconds: number): WrkResult {
  const args = [`-t${THREADS}`, `-c${CONNECTIONS}`, `-d${seconds}s`, "--timeout", "10s"];
  args.push("-s", path.join(root, "bench/wrk-rotate.lua"), base, "--", pathsFile, auth, String(THREADS));
  const out = execFileSync("sh", ["-c", 'wrk "$@" && times', "sh", ...args], { encoding: "utf8" });
  const json = out.split("\n").find((line) => line.startsWith('{"requests"'));
  if (!json) throw new Error(`wrk printed no result:\n${out}`);
  const [, children] = out.trim().split("\n").slice(-2);
  const [user, system] = children.split(" ").map((t) => {
    const [, m, s] = t.match(/(\d+)m([\d.]+)s/)!;
    return Number(m) * 60 + Number(s);
  });
  return { ...(JSON.parse(json) as Omit<WrkResult, "wrkCpu">), wrkCpu: user + system };
}

/** One request of each route first: it must answer 200, and its total tells what the route reads. */
async function check(base: string, route: Route, auth: string): Promise<string> {
  const started = performance.now();
  const res = await fetch(`${base}${route.paths.at(-1)}`, { headers: { Authorization: auth } });
  const body = await res.text();
  const ms = performance.now() - started;
  if (res.status !== 200) throw new Error(`${route.paths.at(-1)}: ${res.status} ${body.slice(0, 300)}`);
  const total = res.headers.get("x-total-count");
  return `${ms.toFixed(0)} ms, ${(body.length / 1024).toFixed(1)} kB${total ? `, X-Total-Count ${total}` : ""}`;
}

async function main() {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "photodrop-bench-scale-"));
  const database = await benchDatabase(work);
  const env = {
    ...benchServerEnv(work, database.url),
    LOG_LEVEL: "warn",
  };
  try {
    const filling = performance.now();
    const ctx = await createContext(loadConfig({ ...env, LOG_LEVEL: "silent" }), createLogger("silent"));
    const steps = await fillScaleDatabase(ctx.db);
    await closeContext(ctx);
    console.log(
      `database: ${database.label}; filled by SQL in ${((performance.now() - filling) / 1000).toFixed(1)} s (${steps.join(", ")})`,
    );

    const start = () =>
      startAsNpmStart({
        ...env,
        PORT: "0",
        HOST: "127.0.0.1",
        ...BENCH_ADMIN_ENV,
      });
    // Started three times (the first right after the fill, the database still writing it out); the last one is measured.
    const startTimes: number[] = [];
    let server = start();
    for (;;) {
      await server.ready;
      startTimes.push((performance.now() - server.spawnedAt) / 1000);
      if (startTimes.length === START_TIMES) break;
      await server.stop();
      server = start();
    }
    const base = await server.ready;
    const pid = server.child.pid!;
    const quietAfter = await untilIdle(pid);
    const command = productionStart();
    const bare = startBenchProcess(
      [...command.nodeArgs.slice(0, -1), "bench/bare-json-server.ts"],
      (line) => {
        const [, plain, born] = line.match(/running at (http:\/\/\S+) born at (http:\/\/\S+)/) ?? [];
        return plain ? { plain, born } : undefined;
      },
      { env: command.env },
    );
    const bareBases = await bare.ready;
    try {
      const auth = `Bearer ${await benchSignIn(base, BENCH_ADMIN)}`;
      console.log(
        `server started in ${startTimes.map((t) => t.toFixed(2)).join(", ")} s (spawn to listening, as npm start runs it), RSS ${memoryMb(pid, "VmRSS").toFixed(0)} MB; ` +
          `its work after the start done (under 5% of a core) ${quietAfter.toFixed(1)} s after listening`,
      );
      console.log(`\nfirst request of each route after the start:`);
      for (const route of routes().filter((r) => !r.bare))
        console.log(`- ${route.label}: ${await check(base, route, auth)}`);

      console.log(
        `\nwrk, ${THREADS} threads, ${CONNECTIONS} connections, ${SECONDS} s per route after ${WARM_UP_SECONDS} s of warm-up, loopback; ` +
          `a different path each request; ${os.cpus().length} cores, load average ${os.loadavg()[0].toFixed(1)} at the start\n`,
      );
      console.log(
        `| route | paths | req/s | share | p50 ms | p99 ms | server${benchOnPg() ? " + PostgreSQL" : ""} CPU | CPU ms/req | CPU share | wrk CPU |\n` +
          "|---|---|---|---|---|---|---|---|---|---|",
      );
      let baselineRps = 0;
      let baselineCpuPerRequest = 0;
      for (const route of routes()) {
        const file = path.join(work, "paths.txt");
        fs.writeFileSync(file, `${route.paths.join("\n")}\n`);
        const target = route.bare
          ? { base: bareBases[route.bare], pid: bare.child.pid!, auth: "" }
          : { base, pid, auth };
        runWrk(target.base, file, target.auth, WARM_UP_SECONDS);
        await untilIdle(target.pid);
        // The app's CPU and, on PostgreSQL, the database server's: both do the route's work.
        const pids = route.bare ? [target.pid] : [pid, ...database.serverPids()];
        const cpuBefore = cpuSince(pids);
        const r = runWrk(target.base, file, target.auth, SECONDS);
        const serverCpu = sum(cpuSince(pids, cpuBefore)) / r.seconds;
        await untilIdle(target.pid);
        if (r.errors > 0 || r.non2xx > 0)
          throw new Error(`${route.label}: ${r.errors} socket errors, ${r.non2xx} non-2xx answers`);
        const rps = r.requests / r.seconds;
        const cpuPerRequest = (serverCpu * r.seconds) / r.requests;
        if (route.bare === "plain") [baselineRps, baselineCpuPerRequest] = [rps, cpuPerRequest];
        const share = `${Math.round((rps / baselineRps) * 100)}%`;
        const cpuShare = `${Math.round((baselineCpuPerRequest / cpuPerRequest) * 100)}%`;
        console.log(
          `| ${route.label} | ${route.paths.length} | ${Math.round(rps)} | ${share} | ${(r.p50 / 1000).toFixed(1)} | ${(r.p99 / 1000).toFixed(1)} | ` +
            `${Math.round(serverCpu * 100)}% | ${(cpuPerRequest * 1000).toFixed(2)} | ${cpuShare} | ${Math.round((r.wrkCpu / r.seconds) * 100)}% |`,
        );
      }
      console.log(
        `\nserver peak RSS over the whole run (VmHWM): ${memoryMb(pid, "VmHWM").toFixed(0)} MB; now ${memoryMb(pid, "VmRSS").toFixed(0)} MB`,
      );
      console.log(
        `CPU is of one core (200% = both), the server's every thread and on PostgreSQL its processes too; CPU ms/req is that CPU time per answer, and CPU share ` +
          `the baseline's CPU per answer over the route's: what the share would be if the server had both cores to itself; ` +
          loadAverageLine().toLowerCase(),
      );
    } finally {
      await bare.stop();
      await server.stop();
    }
  } finally {
    await database.stop();
    fs.rmSync(work, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(String(err?.stack ?? err).slice(0, 3000));
  process.exit(1);
});
