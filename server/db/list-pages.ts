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
 *   search and filters match, read from their indexes; where it takes a query, that query is a
 *   column of the page's own, so a page is one statement;
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
  const counting = totalOf(db, list, spec, source);
  const rows = source.select();
  if (list.range) {
    const { ids } = await pageIds(db, list, spec, source);
    rows.whereIn(source.idColumn, db.select("id").from(ids.as("page")));
  } else applyFilters(rows, list, spec);
  for (const s of list.sort) orderBySort(rows, s);
  if (counting.query) rows.select(counting.query().as(TOTAL));
  const found = (await rows) as Array<Row & { [TOTAL]?: number | string }>;
  const total = counting.kept
    ? await counting.kept
    : found.length > 0
      ? Number(found[0][TOTAL])
      : Number((await counting.query!().first())?.n ?? 0);
  return { rows: found, total };
}

const TOTAL = "list_total";

/** How a list's total is had: kept in this process (sqlite's list_totals), or a query of one value `n`. */
interface Counting {
  kept?: Promise<number>;
  query?: () => Knex.QueryBuilder;
}

/** The filter a parent row counts, when it is the list's only condition. */
function countedFilter(list: ListQuery, source: ListSource) {
  if (list.search || list.filters.length !== 1) return undefined;
  const [filter] = list.filters;
  const parent = source.countedBy?.[filter.column];
  if (!parent || filter.operator !== "eq" || filter.values.length !== 1) return undefined;
  return { column: filter.column, value: filter.values[0], parent };
}

function totalOf(db: Knex, list: ListQuery, spec: ListSpec, source: ListSource): Counting {
  if (!list.search && list.filters.length === 0) {
    // On PostgreSQL other processes write too: the row is read with the page.
    if (isPostgres(db)) return { query: () => db("list_totals").select({ n: "total" }).where("name", source.table) };
    return { kept: readListTotals(db).then((totals) => totals.get(source.table)?.total ?? 0) };
  }
  const counted = countedFilter(list, source);
  if (counted) {
    const { table, column } = counted.parent;
    return { query: () => db(table).select({ n: column }).where("id", counted.value) };
  }
  const phrase =
    list.search && spec.searchIndex && !isPostgres(db) ? searchPhrase(list.search.toLowerCase()) : undefined;
  if (phrase && list.filters.length === 0) {
    // The trigram index alone counts a search's matches: no row of the table is read.
    const { table } = spec.searchIndex!;
    return { query: () => db(table).count({ n: "*" }).whereRaw("?? MATCH ?", [table, phrase]) };
  }
  return { query: () => applyFilters(source.from().count({ n: "*" }), list, spec) };
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
): Promise<{ ids: Knex.QueryBuilder }> {
  const range = list.range!;
  // The joins only when the sort needs one: PostgreSQL then walks an index for a deep page
  // instead of sorting the whole table (bench/README.md, Load).
  const alias = aliasOf(source.idColumn);
  const joined = source.joined && list.sort.some((s) => s.column.includes(".") && !s.column.startsWith(alias));
  const ids = applyFilters((joined ? source.joined!() : source.from()).select(source.idColumn), list, spec);
  if (range.limit < 0 || range.offset <= MARK_EVERY) return { ids: applyPage(ids, list) };
  const totals = await readListTotals(db);
  const column = markedColumn(list, source, totals);
  if (!column) return { ids: applyPage(ids, list) };
  const order = list.sort[0].order;
  const filter = countedFilter(list, source);
  const key = [source.table, filter ? `${filter.column}=${filter.value}` : "", column, order].join("|");
  const versions = [source.table, versionName(source, column), ...(filter ? [versionName(source, filter.column)] : [])]
    .map((name) => totals.get(name)?.version ?? 0)
    .join(":");
  const sorted = { column, idColumn: source.idColumn, order };
  const marks = await pageMarks(db, key, versions, () => applyFilters(source.from(), list, spec), sorted);
  const at = Math.min(Math.floor(range.offset / MARK_EVERY), marks.length - 1);
  if (at <= 0) return { ids: applyPage(ids, list) };
  const page = applyPage(fromMark(ids, marks[at], sorted), { ...list, range: { ...range, offset: 0 } });
  return { ids: page.offset(range.offset - at * MARK_EVERY) };
}
