/** The load bench's data set: rows straight into the database, no files. */
import type { AppContext } from "../server/context";
import { isPostgres } from "../server/db/transactions";

export const CLIENTS = 500;
export const PROJECTS = 10_000;
export const ATTACHMENTS = 200_000;

/** 400 rows a statement: knex writes a multi-row sqlite insert as a compound SELECT, capped at 500 terms. */
export async function insertInBatches(
  ctx: AppContext,
  table: string,
  count: number,
  row: (i: number) => object,
  batch = 400,
) {
  await ctx.db.transaction(async (trx) => {
    for (let start = 0; start < count; start += batch) {
      const rows = [];
      for (let i = start; i < Math.min(count, start + batch); i++) rows.push(row(i));
      await trx(table).insert(rows);
    }
  });
}

export async function fillDatabase(ctx: AppContext) {
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
    client_id: i % 20 === 0 ? null : (i % CLIENTS) + 1,
    publish_status: "draft",
    created_at: at(1000 + i * 7),
    // Updated in a different order than created, so sorting by updatedAt is its own case.
    updated_at: at(1000 + ((i * 7919) % PROJECTS) * 7),
  }));
  await insertInBatches(ctx, "attachments", ATTACHMENTS, (i) => ({
    project_id: (Math.floor(Math.sqrt((i * 7919) % ATTACHMENTS) * 100) % PROJECTS) + 1,
    original_name: `IMG_${i}.jpg`,
    storage_key: `bench/${i}.jpg`,
    mime_type: "image/jpeg",
    size: 1_000_000 + ((i * 104729) % 9_000_000),
    checksum: "0".repeat(64),
    created_at: at(200_000 + i),
    updated_at: at(200_000 + i),
  }));
  // What autovacuum does to a live PostgreSQL database soon after a bulk load: statistics, and the
  // visibility map that lets counts read an index alone. sqlite needs neither.
  if (isPostgres(ctx.db)) await ctx.db.raw("vacuum analyze");
}
