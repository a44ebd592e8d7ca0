import type { Knex } from "knex";
import { applyFilters, applyPage, orderBySort, searchPhrase, type ListQuery, type ListSpec } from "../http/list-query";
import { readListTotals, type ListTotals } from "./list-totals";
import { MARK_EVERY, fromMark, pageMarks } from "./page-marks";
import { isPostgres } from "./transactions";

/** Where a list's rows come from, for `listPage`. */
export interface ListSource {
  /** Its name in list_totals: the table's count and version. */
  table: string;
  /** The table alone, aliased as the spec's columns are: totals, page ids, marks. */
  from(): Knex.QueryBuilder;
  /** The table with the joins a sort may need (a client's name); `from` when it needs none. */
  joined?(): Knex.QueryBuilder;
  /** The full rows. */
  select(): Knex.QueryBuilder;
  idColumn: string;
  /** Filters whose count a parent row keeps: SQL column → that table and its count column. */
  countedBy?: Record<string, { table: string; column: string }>;
}

/**
 * One page of a list and its exact total, at a cost that does not grow with the table:
 * - the total is a maintained count (the table's in list_totals, or the parent row's for a list
 *   filtered by its parent: a client's projects, a project's photos), or else a count of what the
 *   search and filters match, read from their indexes;
 * - the page's ids are chosen first (its filters, sort and window), then its rows: a page deep in a
 *   list sorted by one column starts from the mark before it (server/db/page-marks.ts) instead of
 *   walking every row before it;
 * - a search reads the name index (ListSpec.searchIndex) instead of every name.
 */
export async function listPage<Row>(
  db: Knex,
  list: ListQuery,
  spec: ListSpec,
  source: ListSource,
): Promise<{ rows: Row[]; total: number }> {
  const totals = readListTotals(db);
  const total = countRows(db, list, spec, source, totals);
  const rows = source.select();
  if (list.range) {
    const { ids } = await pageIds(db, list, spec, source, { totals, total });
    rows.whereIn(source.idColumn, db.select("id").from(ids.as("page")));
  } else applyFilters(rows, list, spec);
  for (const s of list.sort) orderBySort(rows, s);
  // Sent together; a window count in the page query instead made sqlite read the whole table.
  const [found, count] = await Promise.all([rows, total]);
  return { rows: found as Row[], total: count };
}

/** The filter a parent row counts, when it is the list's only condition. */
function countedFilter(list: ListQuery, source: ListSource) {
  if (list.search || list.filters.length !== 1) return undefined;
  const [filter] = list.filters;
  const parent = source.countedBy?.[filter.column];
  if (!parent || filter.operator !== "eq" || filter.values.length !== 1) return undefined;
  return { column: filter.column, value: filter.values[0], parent };
}

async function countRows(
  db: Knex,
  list: ListQuery,
  spec: ListSpec,
  source: ListSource,
  totals: Promise<ListTotals>,
): Promise<number> {
  if (!list.search && list.filters.length === 0) {
    const kept = (await totals).get(source.table);
    if (kept) return kept.total;
  }
  const counted = countedFilter(list, source);
  if (counted) {
    const row = await db(counted.parent.table).where("id", counted.value).first(counted.parent.column);
    return Number(row?.[counted.parent.column] ?? 0);
  }
  const phrase =
    list.search && spec.searchIndex && !isPostgres(db) ? searchPhrase(list.search.toLowerCase()) : undefined;
  if (phrase && list.filters.length === 0) {
    // The trigram index alone counts a search's matches: no row of the table is read.
    const { table } = spec.searchIndex!;
    return Number((await db(table).count({ n: "*" }).whereRaw("?? MATCH ?", [table, phrase]).first())?.n ?? 0);
  }
  return Number((await applyFilters(source.from().count({ n: "*" }), list, spec).first())?.n ?? 0);
}

/** The column a list's page can start from a mark of: one sorted column of the table, then the id, one direction. */
function markedColumn(list: ListQuery, source: ListSource, totals: ListTotals): string | undefined {
  if (list.search || (list.filters.length > 0 && !countedFilter(list, source))) return undefined;
  const [first, second] = list.sort;
  if (!first || first.nullable) return undefined;
  if (first.column === source.idColumn) return first.column;
  if (second?.column !== source.idColumn || second.order !== first.order) return undefined;
  // A column of the table itself, not of a joined one (a client's name).
  if (aliasOf(first.column) !== aliasOf(source.idColumn)) return undefined;
  return totals.has(versionName(source, first.column)) ? first.column : undefined;
}

const aliasOf = (column: string) => column.slice(0, column.indexOf(".") + 1);
const versionName = (source: ListSource, column: string) => `${source.table}.${column.slice(column.indexOf(".") + 1)}`;

/** The page's ids as a query (in an object: an async function's result is awaited, and an awaited query runs). */
async function pageIds(
  db: Knex,
  list: ListQuery,
  spec: ListSpec,
  source: ListSource,
  counting: { totals: Promise<ListTotals>; total: Promise<number> },
): Promise<{ ids: Knex.QueryBuilder }> {
  const range = list.range!;
  // The joins only when the sort needs one: PostgreSQL then walks an index for a deep page
  // instead of sorting the whole table (bench/README.md, Load).
  const alias = aliasOf(source.idColumn);
  const joined = source.joined && list.sort.some((s) => s.column.includes(".") && !s.column.startsWith(alias));
  const ids = applyFilters((joined ? source.joined!() : source.from()).select(source.idColumn), list, spec);
  if (range.limit < 0 || range.offset <= MARK_EVERY) return { ids: applyPage(ids, list) };
  const totals = await counting.totals;
  const column = markedColumn(list, source, totals);
  if (!column) return { ids: applyPage(ids, list) };
  const total = await counting.total;
  const count = Math.max(0, Math.min(range.limit, total - range.offset));
  // A descending page is the same rows as an ascending window counted from the end.
  const start = list.sort[0].order === "asc" ? range.offset : Math.max(0, total - range.offset - count);
  const ascending = (qb: Knex.QueryBuilder) =>
    (column === source.idColumn ? qb : qb.orderBy(column, "asc")).orderBy(source.idColumn, "asc").limit(count);
  if (count === 0 || start <= MARK_EVERY) return { ids: ascending(ids).offset(start) };
  const filter = countedFilter(list, source);
  const key = [source.table, filter ? `${filter.column}=${filter.value}` : "", column].join("|");
  const versions = [source.table, versionName(source, column), ...(filter ? [versionName(source, filter.column)] : [])]
    .map((name) => totals.get(name)?.version ?? 0)
    .join(":");
  const filtered = () => applyFilters(source.from(), list, spec);
  const marks = await pageMarks(db, key, versions, filtered, column, source.idColumn);
  const at = Math.min(Math.floor(start / MARK_EVERY), marks.length - 1);
  if (at < 0) return { ids: ascending(ids).offset(start) };
  return { ids: ascending(fromMark(ids, marks[at], column, source.idColumn)).offset(start - at * MARK_EVERY) };
}
