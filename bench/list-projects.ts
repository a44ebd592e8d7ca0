/**
 * Times one page of GET /api/projects through the real app over loopback, against a bare Express
 * handler answering 25 fixed objects in the same process. Run: npx tsx bench/list-projects.ts
 */
import { insertInBatches } from "./large-data";
import { benchContext, listen, listenBareBaseline } from "./bench-app";
import { createApp } from "../server/app";
import type { AppContext } from "../server/context";
import { createUser } from "../server/test/harness";

const CLIENTS = 500;
const PROJECTS = 10_000;
const ATTACHMENTS = 100_000;
const REQUESTS = 200;
const WARMUP = 20;

async function fillDatabase(ctx: AppContext) {
  const base = Date.parse("2025-01-01T00:00:00.000Z");
  const at = (minutes: number) => new Date(base + minutes * 60_000).toISOString();
  await insertInBatches(ctx, "clients", CLIENTS, (i) => ({
    name: `Client ${i + 1}`,
    created_at: at(i),
    updated_at: at(i),
  }));
  await insertInBatches(ctx, "projects", PROJECTS, (i) => ({
    name: `Project ${i + 1}`,
    description: i % 3 ? `Description of project ${i + 1}` : null,
    // Every twentieth project has no client, like the studio's own work.
    client_id: i % 20 === 0 ? null : (i % CLIENTS) + 1,
    publish_status: "draft",
    created_at: at(1000 + i * 7),
    updated_at: at(1000 + i * 7),
  }));
  await insertInBatches(ctx, "attachments", ATTACHMENTS, (i) => ({
    // Uneven spread: low project ids get more photos, so sorting by count is not trivial.
    project_id: (Math.floor(Math.sqrt((i * 7919) % ATTACHMENTS) * 100) % PROJECTS) + 1,
    original_name: `IMG_${i}.jpg`,
    storage_key: `bench/${i}.jpg`,
    mime_type: "image/jpeg",
    size: 1_000_000 + ((i * 104729) % 9_000_000),
    checksum: "0".repeat(64),
    created_at: at(2000 + i),
    updated_at: at(2000 + i),
  }));
}

async function time(url: string, headers: Record<string, string>) {
  const once = async () => {
    const started = performance.now();
    const res = await fetch(url, { headers });
    const body = (await res.json()) as unknown[];
    if (res.status !== 200 || body.length === 0 || body.length > 25)
      throw new Error(`unexpected answer ${res.status} from ${url}`);
    return performance.now() - started;
  };
  for (let i = 0; i < WARMUP; i++) await once();
  const samples: number[] = [];
  for (let i = 0; i < REQUESTS; i++) samples.push(await once());
  samples.sort((a, b) => a - b);
  const pick = (q: number) => samples[Math.min(samples.length - 1, Math.floor(q * samples.length))];
  return { median: pick(0.5), p95: pick(0.95) };
}

async function main() {
  const { ctx, close } = await benchContext("photodrop-bench-");
  const filling = performance.now();
  await fillDatabase(ctx);
  console.log(
    `filled ${CLIENTS} clients, ${PROJECTS} projects, ${ATTACHMENTS} attachments in ${Math.round(performance.now() - filling)} ms`,
  );

  const user = await createUser(ctx);
  const app = createApp(ctx);
  const api = await listen(app, app.serverOptions);
  const baseline = await listenBareBaseline();

  const cases: Array<[string, string, Record<string, string>]> = [
    ["baseline: bare Express, fixed 25 objects", `${baseline.base}/fixed`, {}],
    [
      "projects page, _sort=createdAt desc",
      `${api.base}/api/projects?_start=0&_end=25&_sort=createdAt&_order=desc`,
      user.auth,
    ],
    [
      "projects page, _sort=attachmentCount desc",
      `${api.base}/api/projects?_start=0&_end=25&_sort=attachmentCount&_order=desc`,
      user.auth,
    ],
    [
      "projects page, _sort=totalFileSize desc",
      `${api.base}/api/projects?_start=0&_end=25&_sort=totalFileSize&_order=desc`,
      user.auth,
    ],
    [
      "projects page, clientName asc",
      `${api.base}/api/projects?_start=0&_end=25&_sort=clientName&_order=asc`,
      user.auth,
    ],
    [
      "projects page, clientId=7 (~20 rows), createdAt desc",
      `${api.base}/api/projects?clientId=7&_start=0&_end=25&_sort=createdAt&_order=desc`,
      user.auth,
    ],
  ];
  console.log(`\n${REQUESTS} sequential requests each after ${WARMUP} warm-up, loopback, one process:\n`);
  console.log("| case | median ms | p95 ms |\n|---|---|---|");
  for (const [label, url, headers] of cases) {
    const { median, p95 } = await time(url, headers);
    console.log(`| ${label} | ${median.toFixed(2)} | ${p95.toFixed(2)} |`);
  }

  api.server.close();
  baseline.server.close();
  await close();
}

main().catch((err) => {
  console.error(String(err?.message ?? err).slice(0, 2000));
  process.exit(1);
});
