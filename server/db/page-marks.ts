import type { Knex } from "knex";
import type { Sql } from "../http/list-query";
import { readRows } from "./prepared-reads";
import { isPostgres } from "./transactions";
import { versionedMemo } from "./versioned-memo";

/** Rows between two marks: the most a page's query walks past its mark. */
export const MARK_EVERY = 256;
/** Mark sets kept per database (each a few kB: one key and id every MARK_EVERY rows). */
const MAX_SETS = 64;

/** Where rank `n × MARK_EVERY` of a sorted list begins: that row's sort key and id. */
export type Mark = readonly [key: unknown, id: number];

/** A list's order: one column, then the id, both in one direction (ties follow the sort, see list-query.ts). */
export interface MarkedOrder {
  column: string;
  idColumn: string;
  order: "asc" | "desc";
}

const keptMarks = versionedMemo<Mark[]>(MAX_SETS);

/**
 * Every MARK_EVERY-th row of a sorted list, so a page deep in the list starts from the mark before
 * it (`(column, id) >= mark`, or `<=` descending, read from the index) and walks at most
 * MARK_EVERY rows instead of every row before it, as OFFSET would. One set per list (table,
 * filter, sort column and direction) and database, read once in one index walk and kept until a
 * version it depends on changes (rows added or removed, the column or the filter changed: see
 * migration add_list_order_versions).
 */
export function pageMarks(
  db: Knex,
  key: string,
  versions: string,
  rows: { from: string; where?: Sql },
  order: MarkedOrder,
): Promise<Mark[]> {
  return keptMarks(db, key, versions, () => readMarks(db, rows, order));
}

/** The marks kept for a list under these versions, if any, without reading them. */
export function keptPageMarks(db: Knex, key: string, versions: string): Promise<Mark[]> | undefined {
  return keptMarks(db, key, versions);
}

async function readMarks(
  db: Knex,
  rows: { from: string; where?: Sql },
  { column, idColumn, order }: MarkedOrder,
): Promise<Mark[]> {
  // PostgreSQL's keys come back as text, so a timestamp keeps its microseconds when sent back.
  const key = isPostgres(db) ? `${column}::text` : column;
  const marks = await readRows<{ k: unknown; i: number }>(db, {
    text:
      `SELECT k, i FROM (SELECT ${key} AS k, ${idColumn} AS i, row_number() OVER (ORDER BY ${column} ${order}, ${idColumn} ${order}) AS r ` +
      `FROM ${rows.from}${rows.where ? ` WHERE ${rows.where.text}` : ""}) numbered WHERE (r - 1) % ${MARK_EVERY} = 0 ORDER BY r`,
    values: rows.where?.values ?? [],
  });
  return marks.map((m) => [m.k, Number(m.i)] as const);
}
