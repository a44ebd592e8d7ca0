/**
 * Throughput under load: autocannon, 50 connections, against the real app and a bare Express JSON
 * handler in the same process and the same run. Run: npx tsx bench/load.ts [seconds per route]
 */
import autocannon from "autocannon";
import { benchContext, listen, listenBareBaseline } from "./bench-app";
import { createApp } from "../server/app";
import { createUser } from "../server/test/harness";
import { ATTACHMENTS, CLIENTS, PROJECTS, fillDatabase } from "./large-data";

const CONNECTIONS = 50;
const SECONDS = Number(process.argv[2] ?? 10);

async function load(url: string, headers: Record<string, string>) {
  const result = await autocannon({ url, headers, connections: CONNECTIONS, duration: SECONDS });
  if (result.non2xx > 0 || result.errors > 0 || result.timeouts > 0) {
    throw new Error(`${url}: ${result.non2xx} non-2xx, ${result.errors} errors, ${result.timeouts} timeouts`);
  }
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99 };
}

async function main() {
  const { ctx, close } = await benchContext("photodrop-load-");
  const filling = performance.now();
  await fillDatabase(ctx);
  console.log(
    `filled ${CLIENTS} clients, ${PROJECTS} projects, ${ATTACHMENTS} attachment rows in ${Math.round(performance.now() - filling)} ms`,
  );

  const user = await createUser(ctx);
  const api = await listen(createApp(ctx));
  const baseline = await listenBareBaseline();

  // Project 1 has the most attachments of the uneven spread.
  const cases: Array<[string, string, Record<string, string>]> = [
    ["baseline: bare Express, fixed 25 objects", `${baseline.base}/fixed`, {}],
    ["`GET /api/users/me`", `${api.base}/api/users/me`, user.auth],
    [
      "projects page 1, updatedAt desc",
      `${api.base}/api/projects?_start=0&_end=25&_sort=updatedAt&_order=desc`,
      user.auth,
    ],
    [
      "projects page 361, updatedAt desc",
      `${api.base}/api/projects?_start=9000&_end=9025&_sort=updatedAt&_order=desc`,
      user.auth,
    ],
    ["clients page 1", `${api.base}/api/clients?_start=0&_end=25`, user.auth],
    ["attachments of project 1, page 1", `${api.base}/api/attachments?projectId=1&_start=0&_end=25`, user.auth],
  ];
  console.log(`\nautocannon, ${CONNECTIONS} connections, ${SECONDS} s per route, loopback, one process:\n`);
  console.log("| route | req/s | share of baseline | p50 ms | p99 ms |\n|---|---|---|---|---|");
  let baselineRps = 0;
  for (const [label, url, headers] of cases) {
    const { rps, p50, p99 } = await load(url, headers);
    if (!baselineRps) baselineRps = rps;
    console.log(`| ${label} | ${Math.round(rps)} | ${Math.round((rps / baselineRps) * 100)}% | ${p50} | ${p99} |`);
  }

  // autocannon stops without waiting for its last answers; let them finish before closing the pool.
  await new Promise((resolve) => setTimeout(resolve, 2000));
  api.server.close();
  baseline.server.close();
  await close();
}

main().catch((err) => {
  console.error(String(err?.message ?? err).slice(0, 2000));
  process.exit(1);
});
