/**
 * Throughput under load: autocannon, 50 connections, against the real app and a bare Express JSON
 * handler served by one server process (bench/load-server.ts) in the same run; autocannon runs in
 * this process, so it never takes the server's event loop. Run: npx tsx bench/load.ts [seconds per route]
 */
import autocannon from "autocannon";
import { startBenchProcess } from "./bench-process";

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
  filled: string;
}

async function main() {
  // Lines before its JSON one (which database) are printed.
  const server = startBenchProcess(
    ["bench/load-server.ts"],
    (line) => (line.startsWith("{") ? (JSON.parse(line) as Served) : undefined),
    { env: { NODE_ENV: "production" }, echo: true },
  );
  const { api, baseline, auth, filled } = await server.ready;
  console.log(`server process ${server.child.pid}: ${filled}`);

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

  await server.stop();
}

main().catch((err) => {
  console.error(String(err?.message ?? err).slice(0, 2000));
  process.exit(1);
});
