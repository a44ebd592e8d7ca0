import type { Knex } from "knex";
import { sqliteWriteCount } from "./dialect";
import { readRows } from "./prepared-reads";

/** A row of list_totals: a count or sum, and the version of what it describes. */
export interface ListTotal {
  total: number;
  version: number;
}

export type ListTotals = ReadonlyMap<string, ListTotal>;

const kept = new WeakMap<object, { writeCount: number; totals: Promise<ListTotals> }>();

const READ_ALL = { text: "SELECT name, total, version FROM list_totals", values: [] };

/** The rows last read from each database (PostgreSQL's, which are read on every call). */
const lastRead = new WeakMap<object, ListTotals>();

async function readAll(db: Knex): Promise<ListTotals> {
  // Prepared once per connection.
  const rows = await readRows<{ name: string; total: number | string; version: number | string }>(db, READ_ALL);
  const totals = new Map(rows.map((r) => [r.name, { total: Number(r.total), version: Number(r.version) }]));
  lastRead.set(db, totals);
  return totals;
}

/**
 * The rows last read from this database, if any: on PostgreSQL, a guess at the versions a deep
 * page's marks may use, which the page's own statement then checks (server/db/list-pages.ts).
 */
export function lastReadListTotals(db: Knex): ListTotals | undefined {
  return lastRead.get(db);
}

/**
 * Every maintained count, sum and order version (migrations create_list_totals and
 * add_list_order_versions: triggers keep them in the same transaction as each change). On sqlite,
 * where this process is the only writer, the rows read are kept until it writes again (the same
 * rule as the page cache: read under a write count, used only under that count); on PostgreSQL
 * other processes write too, so every call reads them (one query of about thirty short rows).
 */
export function readListTotals(db: Knex): Promise<ListTotals> {
  const writeCount = sqliteWriteCount(db);
  if (writeCount === undefined) return readAll(db);
  const found = kept.get(db);
  if (found && found.writeCount === writeCount) return found.totals;
  const totals = readAll(db);
  const entry = { writeCount, totals };
  kept.set(db, entry);
  totals.catch(() => kept.get(db) === entry && kept.delete(db));
  return totals;
}
