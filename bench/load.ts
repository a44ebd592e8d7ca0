/**
 * Throughput under load: autocannon, 50 connections, against the real app and a bare Express JSON
 * handler served by one server process (bench/load-server.ts) in the same run; autocannon runs in
 * this process, so it never takes the server's event loop. Then the same list page with a sign-in's
 * token and with an API token (`pd_…`), side by side, with wrk. Run: npx tsx bench/load.ts [seconds per route]
 * (`BENCH_ONLY=tokens`: only that comparison).
 */
import autocannon from "autocannon";
import { startBenchProcess } from "./bench-process";
import { loadAverageLine } from "./machine";
import { runWrk, type WrkResult } from "./wrk";

const CONNECTIONS = 50;
const SECONDS = Number(process.argv[2] ?? 10);

/** Projects pages, a different one each request: 400 pages, more than the page cache keeps, so none is answered from it. */
const UNCACHED_PAGES = 400;
let nextPage = 0;
function uncachedPage(req: autocannon.Request) {
  const start = (nextPage++ % UNCACHED_PAGES) * 25;
  return { ...req, path: `/api/projects?_start=${start}&_end=${start + 25}&_sort=updatedAt&_order=desc` };
}

interface Route {
  label: string;
  url: string;
  headers?: Record<string, string>;
  /** Rewrites each request before it is sent (autocannon's setupRequest). */
  setupRequest?: (req: autocannon.Request) => autocannon.Request;
}

async function load({ url, headers, setupRequest }: Route) {
  const result = await autocannon({
    url,
    headers,
    connections: CONNECTIONS,
    duration: SECONDS,
    ...(setupRequest ? { requests: [{ setupRequest }] } : {}),
  });
  if (result.non2xx > 0 || result.errors > 0 || result.timeouts > 0) {
    throw new Error(`${url}: ${result.non2xx} non-2xx, ${result.errors} errors, ${result.timeouts} timeouts`);
  }
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99 };
}

interface Served {
  api: string;
  baseline: string;
  auth: Record<string, string>;
  /** The same user's API token, its per-minute limit raised out of the way. */
  tokenAuth: Record<string, string>;
  filled: string;
}

/**
 * One list page with a sign-in's access token and with an API token, driven by wrk (C, one thread,
 * so the server keeps the other core), in turns (sign-in, token, token, sign-in) so a machine
 * getting busier or quieter during the run weighs on both alike. The server's CPU time an answer is
 * what a request costs.
 */
async function signInAgainstApiToken(served: Served, serverPid: number | undefined) {
  const base = served.api;
  const paths = ["/api/projects?_start=0&_end=25&_sort=updatedAt&_order=desc"];
  const run = (headers: Record<string, string>, seconds = SECONDS) =>
    runWrk({ base, paths, connections: CONNECTIONS, seconds, headers, watch: { server: serverPid } });
  const check = (r: WrkResult) => {
    if (r.errors > 0) throw new Error(`${paths[0]}: ${r.errors} errors (${r.statusErrors} answers of 400 or more)`);
    return r;
  };
  check(await run(served.auth, 2));
  check(await run(served.tokenAuth, 2));
  const signIn: WrkResult[] = [];
  const token: WrkResult[] = [];
  for (const [runs, headers] of [
    [signIn, served.auth],
    [token, served.tokenAuth],
    [token, served.tokenAuth],
    [signIn, served.auth],
  ] as const)
    runs.push(check(await run(headers)));
  const mean = (runs: WrkResult[], of: (r: WrkResult) => number) =>
    runs.reduce((sum, r) => sum + of(r), 0) / runs.length;
  const figures = (runs: WrkResult[]) => ({
    rps: mean(runs, (r) => r.rps),
    p50: mean(runs, (r) => r.p50ms),
    p99: mean(runs, (r) => r.p99ms),
    cpuMs: mean(runs, (r) => (r.cpu.server / 100 / r.rps) * 1000),
  });
  const [jwt, pd] = [figures(signIn), figures(token)];
  console.log(
    `\nprojects page 1 (updatedAt desc), the same user: wrk, 1 thread, ${CONNECTIONS} connections, ` +
      `each way ${2 * SECONDS} s in two turns (after 2 s of warm-up each):\n`,
  );
  console.log("| authenticated with | req/s | p50 ms | p99 ms | server CPU ms/answer |\n|---|---|---|---|---|");
  for (const [label, f] of [
    ["sign-in (JWT access token)", jwt],
    ["API token (`pd_…`)", pd],
    [
      "API token ÷ sign-in",
      { rps: pd.rps / jwt.rps, p50: pd.p50 / jwt.p50, p99: pd.p99 / jwt.p99, cpuMs: pd.cpuMs / jwt.cpuMs },
    ],
  ] as const) {
    const ratio = label.includes("÷");
    const n = (v: number, digits: number) => (ratio ? v.toFixed(2) : v.toFixed(digits));
    console.log(`| ${label} | ${n(f.rps, 0)} | ${n(f.p50, 2)} | ${n(f.p99, 2)} | ${n(f.cpuMs, 3)} |`);
  }
  console.log(`\n${loadAverageLine()}`);
}

async function main() {
  // Lines before its JSON one (which database) are printed.
  const server = startBenchProcess(
    ["bench/load-server.ts"],
    (line) => (line.startsWith("{") ? (JSON.parse(line) as Served) : undefined),
    { env: { NODE_ENV: "production" }, echo: true },
  );
  const served = await server.ready;
  const { api, baseline, auth, filled } = served;
  console.log(`server process ${server.child.pid}: ${filled}`);
  if (process.env.BENCH_ONLY === "tokens") {
    await signInAgainstApiToken(served, server.child.pid);
    await server.stop();
    return;
  }

  // Project 1 has the most attachments of the uneven spread.
  const routes: Route[] = [
    { label: "baseline: bare Express, fixed 25 objects", url: `${baseline}/fixed` },
    { label: "`GET /api/users/me`", url: `${api}/api/users/me`, headers: auth },
    {
      label: "projects page 1, updatedAt desc",
      url: `${api}/api/projects?_start=0&_end=25&_sort=updatedAt&_order=desc`,
      headers: auth,
    },
    {
      label: "projects page 361, updatedAt desc",
      url: `${api}/api/projects?_start=9000&_end=9025&_sort=updatedAt&_order=desc`,
      headers: auth,
    },
    {
      label: "projects, a different page each request (none cached)",
      url: `${api}/api/projects`,
      headers: auth,
      setupRequest: uncachedPage,
    },
    { label: "clients page 1", url: `${api}/api/clients?_start=0&_end=25`, headers: auth },
    {
      label: "attachments of project 1, page 1",
      url: `${api}/api/attachments?projectId=1&_start=0&_end=25`,
      headers: auth,
    },
  ];
  console.log(
    `\nautocannon, ${CONNECTIONS} connections, ${SECONDS} s per route, loopback, server in its own process:\n`,
  );
  console.log("| route | req/s | share of baseline | p50 ms | p99 ms |\n|---|---|---|---|---|");
  let baselineRps = 0;
  for (const route of routes) {
    const { rps, p50, p99 } = await load(route);
    if (!baselineRps) baselineRps = rps;
    console.log(
      `| ${route.label} | ${Math.round(rps)} | ${Math.round((rps / baselineRps) * 100)}% | ${p50} | ${p99} |`,
    );
  }
  await signInAgainstApiToken(served, server.child.pid);

  await server.stop();
}

main().catch((err) => {
  console.error(String(err?.message ?? err).slice(0, 2000));
  process.exit(1);
});
