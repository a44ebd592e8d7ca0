/**
 * Prints sqlite's EXPLAIN QUERY PLAN and the time of every query of one list page, for every sort
 * the projects, clients and attachments lists allow, over the load bench's data set.
 * Run: npx tsx bench/list-plans.ts
 */
import { benchContext } from "./bench-app";
import { parseListQuery, type ListSpec } from "../server/http/list-query";
import { listProjects, projectListSpec } from "../server/projects/projects.repository";
import { clientListSpec, listClients } from "../server/clients/clients.repository";
import { attachmentListSpec, listAttachments } from "../server/attachments/attachments.repository";
import type { Db } from "../server/db/database";
import type { ListQuery } from "../server/http/list-query";
import { fillDatabase } from "./large-data";

type Lister = (db: Db, list: ListQuery) => Promise<{ total: number }>;

const LISTS: Array<[string, ListSpec, Lister, Record<string, string>]> = [
  ["projects", projectListSpec, listProjects, {}],
  ["clients", clientListSpec, listClients, {}],
  ["attachments of project 1", attachmentListSpec, listAttachments, { projectId: "1" }],
  ["all attachments", attachmentListSpec, listAttachments, {}],
];

async function main() {
  const { ctx, close } = await benchContext("photodrop-plans-");
  await fillDatabase(ctx);
  await ctx.db.raw("analyze");

  const seen: Array<{ sql: string; bindings: readonly unknown[] }> = [];
  ctx.db.on("query", (q: { sql: string; bindings?: readonly unknown[] }) =>
    seen.push({ sql: q.sql, bindings: q.bindings ?? [] }),
  );
  for (const [name, spec, list, filter] of LISTS) {
    for (const field of Object.keys(spec.sortable)) {
      for (const start of [0, 9000]) {
        const query = parseListQuery(
          { ...filter, _start: String(start), _end: String(start + 25), _sort: field, _order: "desc" },
          spec,
        );
        seen.length = 0;
        const began = performance.now();
        await list(ctx.db, query);
        const ms = performance.now() - began;
        const queries = [...seen];
        console.log(
          `\n### ${name}, _sort=${field} desc, _start=${start}: ${queries.length} quer${queries.length === 1 ? "y" : "ies"}, ${ms.toFixed(1)} ms`,
        );
        for (const q of queries) {
          const plan = (await ctx.db.raw(`explain query plan ${q.sql}`, q.bindings as never)) as Array<{
            detail: string;
          }>;
          for (const step of plan) console.log(`  ${step.detail}`);
          console.log("  --");
        }
        seen.length = 0;
      }
    }
  }
  await close();
}

main().catch((err) => {
  console.error(String(err?.stack ?? err).slice(0, 2000));
  process.exit(1);
});
