import type { Knex } from "knex";
import {
  columnName,
  filterSql,
  orderSql,
  searchPhrase,
  type ListQuery,
  type ListSpec,
  type Sql,
} from "../http/list-query";
import { lastReadListTotals, readListTotals, type ListTotals } from "./list-totals";
import { keptPageMarks, MARK_EVERY, pageMarks, type MarkedOrder } from "./page-marks";
import { planningEachCall, readRows } from "./prepared-reads";
import { suffixSearch, type SuffixSearch } from "./suffix-search";
import { isPostgres } from "./transactions";
import { versionedMemo } from "./versioned-memo";

/** Where a list's rows come from, for `listPage`: trusted SQL written in its repository. */
export interface ListSource {
  /** Its name in list_totals: the table's count and version. */
  table: string;
  /** The table alone, aliased as the spec's columns are (`projects p`): totals, page ids, marks. */
  from: string;
  /** The table with the joins a sort or a row may need (a client's name); `from` when it needs none. */
  joined?: string;
  /** What each row of a page is (its select list). */
  columns: string;
  idColumn: string;
  /** Filters whose count a parent row keeps: SQL column → that table and its count column. */
  countedBy?: Record<string, { table: string; column: string }>;
}

const TOTAL = "list_total";
const VERSIONS = "list_versions";

/**
 * One page of a list and its exact total, in one prepared statement whose cost does not grow with
 * the table:
 * - the total is a maintained count (the table's in list_totals, or the parent row's for a list
 *   filtered by its parent: a client's projects, a project's photos), or else a count of what the
 *   search and filters match, read from their indexes; where it takes a query, that query is a
 *   column of the page's statement;
 * - the page's ids are chosen first (its filters, sort and window), then its rows: a page deep in a
 *   list sorted by one column starts from the mark before it (server/db/page-marks.ts) instead of
 *   walking every row before it;
 * - a search reads the name index (ListSpec.searchIndex; on PostgreSQL, where it can, the
 *   suffix index, ListSpec.suffixIndex) instead of every name.
 */
export async function listPage<Row>(
  db: Knex,
  requested: ListQuery,
  spec: ListSpec,
  source: ListSource,
): Promise<{ rows: Row[]; total: number }> {
  return withCheckedVersions(poolFor(db, requested, spec, source), requested, spec, source, async (on, page) => {
    const found = await readRows<Row & { [TOTAL]?: number | string; [VERSIONS]?: string }>(
      on,
      withRowColumns(page.select(ROW_COLUMNS), source.columns),
    );
    const versions = found[0]?.[VERSIONS];
    const total = await pageTotal(on, page, found.length > 0 ? found[0][TOTAL] : undefined, versions);
    return { versions, result: { rows: found, total } };
  });
}

/**
 * `listPage` for rows that are JSON texts (the column `alias`): the page as one JSON array joined
 * by the database, as bytes on sqlite, which are sent as they are instead of each row's text being
 * decoded, joined and encoded again in JavaScript.
 */
export async function listPageBody(
  db: Knex,
  requested: ListQuery,
  spec: ListSpec,
  source: ListSource,
  alias: string,
): Promise<{ body: Buffer | string; total: number }> {
  const pg = isPostgres(db);
  return withCheckedVersions(poolFor(db, requested, spec, source), requested, spec, source, async (on, page) => {
    // The sort's columns, selected beside each row, order the join (a window's row_number cost more).
    const keys = page.sort.map((s, i) => ({ ...s, column: `list_key_${i}` }));
    const columns = [...page.sort.map((s, i) => `${s.column} AS ${keys[i].column}`), ROW_COLUMNS].join(", ");
    const inOrder = keys.length > 0 ? ` ORDER BY ${orderSql(keys, pg)}` : "";
    const array = pg
      ? `'[' || string_agg(${alias}, ','${inOrder}) || ']'`
      : `CAST('[' || group_concat(${alias}, ','${inOrder}) || ']' AS BLOB)`;
    const rows = page.select(columns);
    const also = [page.counting.sql ? TOTAL : "", page.guard ? VERSIONS : ""].filter(Boolean);
    const [joined] = await readRows<{ body: Buffer | string | null; [TOTAL]?: number | string; [VERSIONS]?: string }>(
      on,
      withRowColumns(
        {
          text: `SELECT ${[`${array} AS body`, ...also.map((c) => `max(${c}) AS ${c}`)].join(", ")} FROM (${rows.text}) page_rows`,
          values: rows.values,
        },
        source.columns,
      ),
    );
    const { body, [TOTAL]: counted, [VERSIONS]: versions } = joined;
    const total = await pageTotal(on, page, body !== null ? counted : undefined, versions);
    return { versions, result: { body: body ?? "[]", total } };
  });
}

/** Where a statement's row columns go, put in by withRowColumns. */
const ROW_COLUMNS = "\u0000row columns\u0000";
const statementTexts = new Map<string, Map<string, string>>();

/**
 * `sql` with `columns` (ListSource.columns, a constant of its repository) where it says
 * ROW_COLUMNS, as the same string each time for the same statement. Kept statements are found by
 * their text (prepared-reads.ts): a text built anew, kilobytes of SQL in hundreds of pieces, is
 * read whole to be found (4.5% of the main thread on PostgreSQL's pages of projects), the same
 * string at once; only the text around the columns is read here.
 */
function withRowColumns(sql: Sql, columns: string): Sql {
  let texts = statementTexts.get(columns);
  if (!texts) statementTexts.set(columns, (texts = new Map()));
  let text = texts.get(sql.text);
  if (text === undefined) {
    text = sql.text.replace(ROW_COLUMNS, () => columns);
    texts.set(sql.text, text);
    if (texts.size > 1000) texts.delete(texts.keys().next().value!);
  }
  return { text, values: sql.values };
}

/**
 * Reads a page with `read`. On PostgreSQL a deep page's marks are first chosen under the
 * list_totals versions last read rather than reading them again (one statement fewer a page), and
 * a search's total is the count kept from an earlier page; the page's statement reads those
 * versions beside its rows: if they are not the ones the marks were chosen or the count read
 * under (another process wrote meanwhile, or the page is empty), the page is read again under
 * versions read first.
 */
async function withCheckedVersions<T>(
  db: Knex,
  requested: ListQuery,
  spec: ListSpec,
  source: ListSource,
  read: (db: Knex, page: PageRows) => Promise<{ versions?: string; result: T }>,
): Promise<T> {
  const guessed = await pageRows(db, requested, spec, source, { guessVersions: true });
  const first = await read(db, guessed);
  const expected = guessed.guard?.expected;
  if (expected === undefined || first.versions === expected) return first.result;
  return (await read(db, await pageRows(db, requested, spec, source, { guessVersions: false }))).result;
}

/**
 * Where a list is read: a pool that keeps generic plans (PostgreSQL's reads, server/db/dialect.ts)
 * only when no value changes the best plan; a search or a filter other than the parent's is
 * planned for its values on every call (a generic plan walked all 1,000,000 photos for a rare
 * file name).
 */
function poolFor(db: Knex, list: ListQuery, spec: ListSpec, source: ListSource): Knex {
  const planFree = !list.search && (list.filters.length === 0 || countedFilter(list, source) !== undefined);
  return planFree || keepsSearchPlan(db, list, spec, source) ? db : planningEachCall(db);
}

/**
 * Whether a PostgreSQL search's matches are read once for both its count and its page (`matched`,
 * below): when the page is sorted by the table's own columns.
 */
function readsMatchesFirst(db: Knex, list: ListQuery, source: ListSource): boolean {
  const alias = aliasOf(source.idColumn);
  return isPostgres(db) && !!list.search && !!list.range && list.sort.every((s) => aliasOf(s.column) === alias);
}

/**
 * Whether such a search may keep one plan for every pattern: a range of the suffix index, or, with
 * three letters or digits in a row, the trigram index narrows any pattern, and one plan reading it
 * suits them all (planning took about 0.9 ms a search); a text neither narrows is planned for itself.
 */
function keepsSearchPlan(db: Knex, list: ListQuery, spec: ListSpec, source: ListSource): boolean {
  if (!readsMatchesFirst(db, list, source)) return false;
  return suffixSearch(list, spec, source.idColumn) !== undefined || /[a-z0-9]{3}/i.test(list.search!);
}

/**
 * A page's total: kept in this process, or read with its rows (`counted`, kept for the next page
 * under the versions read with it, `versions`), or, for an empty page (whose statement returned
 * no row to carry it), counted on its own.
 */
async function pageTotal(
  db: Knex,
  page: PageRows,
  counted: number | string | undefined,
  /** Null if list_totals had none of the names asked for. */
  versions: string | null | undefined,
): Promise<number> {
  if (page.counting.kept) return page.counting.kept;
  if (counted !== undefined) {
    const { keepAs } = page.counting;
    if (keepAs && typeof versions === "string" && readsAll(versions, keepAs.names))
      void searchCounts(db, keepAs.key, versions, () => Promise.resolve(Number(counted)));
    return Number(counted);
  }
  const [count] = await readRows<{ n: number | string }>(db, page.counting.sql!);
  return Number(count?.n ?? 0);
}

/**
 * The list_totals versions a page's marks were chosen or its count kept under, read again by the
 * page's statement; with no `expected`, read to learn them (a count to keep).
 */
interface VersionsGuard extends Sql {
  expected?: string;
}

/** A page of a list, before its rows' columns are chosen. */
interface PageRows {
  counting: Counting;
  guard?: VersionsGuard;
  /** The list's order, as run (see sortedById). */
  sort: ListQuery["sort"];
  /** The statement reading the page's rows with these columns (and the count's, where the total takes a query), in order. */
  select(columns: string): Sql;
}

async function pageRows(
  db: Knex,
  requested: ListQuery,
  spec: ListSpec,
  source: ListSource,
  { guessVersions }: { guessVersions: boolean },
): Promise<PageRows> {
  const pg = isPostgres(db);
  const list = await sortedById(db, requested, spec, source);
  const where = filterSql(list, spec, pg);
  const searchFirst = where && readsMatchesFirst(db, list, source);
  const suffixes = searchFirst ? suffixSearch(list, spec, source.idColumn) : undefined;
  const matched = searchFirst && !suffixes ? matchedRows(list, source, where) : undefined;
  const query: PageQuery = { db, list, spec, source, where, guessVersions, matched, suffixes };
  const counting = totalOf(query);
  // Awaited only after the page's rows: should those fail first, the count's failure is not left unhandled.
  counting.kept?.catch(() => undefined);
  const order = orderSql(list.sort, pg);
  const rowsFrom = source.joined ?? source.from;
  // The matches' count is read from them once they are read for the page.
  const count = matched && counting.ofWhere ? { text: MATCHED_COUNT, values: [] } : counting.sql;
  const countValues = count?.values ?? [];
  const ids = list.range ? await pageIds(query) : undefined;
  // Never both: a search has no marks.
  const guard = ids?.guard ?? counting.guard;
  const select = (columns: string): Sql => {
    const also = [
      ...(count ? [`(${count.text}) AS ${TOTAL}`] : []),
      ...(guard ? [`(${guard.text}) AS ${VERSIONS}`] : []),
    ];
    const selected = [columns, ...also].join(", ");
    const alsoValues = [...countValues, ...(guard?.values ?? [])];
    if (ids) {
      // PostgreSQL: as an array, the page's ids are found the same way whatever the LIMIT and
      // OFFSET, so the plan kept for the statement (server/db/dialect.ts) suits every page.
      const inPage = pg
        ? `${source.idColumn} = ANY (ARRAY(${ids.text}))`
        : `${source.idColumn} IN (SELECT id FROM (${ids.text}) page)`;
      return {
        text: `${matched ? `${matched.text} ` : ""}SELECT ${selected} FROM ${rowsFrom} WHERE ${inPage} ORDER BY ${order}`,
        values: [...(matched?.values ?? []), ...alsoValues, ...ids.values],
      };
    }
    return {
      text: `SELECT ${selected} FROM ${rowsFrom}${where ? ` WHERE ${where.text}` : ""} ORDER BY ${order}`,
      values: [...alsoValues, ...(where?.values ?? [])],
    };
  };
  return { counting, guard, sort: list.sort, select };
}

/**
 * The list sorted by its id alone where its sort column follows the id's order (ListSpec.followsId:
 * its counter of rows out of order is 0): the same rows in the same order, whose page the primary
 * key or the search index gives in order instead of every match's row being read to sort them.
 */
async function sortedById(db: Knex, list: ListQuery, spec: ListSpec, source: ListSource): Promise<ListQuery> {
  const [first, second] = list.sort;
  const counter = first && spec.followsId?.[first.column];
  if (!counter || isPostgres(db) || list.sort.length !== 2) return list;
  if (second.column !== source.idColumn || second.order !== first.order) return list;
  const totals = await readListTotals(db);
  return totals.get(counter)?.total === 0 ? { ...list, sort: [second] } : list;
}

/** The phrase of a list whose only condition is a search sqlite's trigram index answers alone. */
function searchOnly(db: Knex, list: ListQuery, spec: ListSpec): string | undefined {
  if (!list.search || !spec.searchIndex || isPostgres(db) || list.filters.length > 0) return undefined;
  return searchPhrase(list.search.toLowerCase());
}

/** Searches' counts (a few bytes each), kept until the table's rows or the searched or filtered columns change. */
const searchCounts = versionedMemo<number>(256);

/**
 * How a list's total is had: kept in this process (sqlite's list_totals, a search's count), or a
 * statement of one value `n`. `guard` reads the versions a kept count holds under (PostgreSQL), or
 * those a counted one is then kept under (`keepAs`).
 */
interface Counting {
  kept?: Promise<number>;
  sql?: Sql;
  /** `sql` counts the rows of the list's conditions: what `matched` holds, where it is read. */
  ofWhere?: boolean;
  guard?: VersionsGuard;
  keepAs?: { key: string; names: string[] };
}

/** Whether a versions text (`name=version,…`, versionsGuard) has a version for every name. */
function readsAll(versions: string, names: string[]): boolean {
  const read = new Set(versions.split(",").map((pair) => pair.slice(0, pair.lastIndexOf("="))));
  return names.every((name) => read.has(name));
}

/** The filter a parent row counts, when it is the list's only condition. */
function countedFilter(list: ListQuery, source: ListSource) {
  if (list.search || list.filters.length !== 1) return undefined;
  const [filter] = list.filters;
  const parent = source.countedBy?.[filter.column];
  if (!parent || filter.operator !== "eq" || filter.values.length !== 1) return undefined;
  return { column: filter.column, value: filter.values[0], parent };
}

/**
 * What a page's total and ids are chosen from: the list as run, its conditions, and whether marks
 * and counts may be taken under the versions last read (PostgreSQL; see withCheckedVersions).
 */
interface PageQuery {
  db: Knex;
  list: ListQuery;
  spec: ListSpec;
  source: ListSource;
  where: Sql | undefined;
  guessVersions: boolean;
  /** A search's matches, read once as the table `matched` for its count and its page (PostgreSQL). */
  matched?: Sql;
  /** Or a search the suffix index answers (PostgreSQL). */
  suffixes?: SuffixSearch;
}

function totalOf({ db, list, spec, source, where, guessVersions, suffixes }: PageQuery): Counting {
  if (!where) {
    // On PostgreSQL other processes write too: the row is read with the page.
    if (isPostgres(db))
      return { sql: { text: "SELECT total AS n FROM list_totals WHERE name = ?", values: [source.table] } };
    return { kept: readListTotals(db).then((totals) => totals.get(source.table)?.total ?? 0) };
  }
  const counted = countedFilter(list, source);
  if (counted) {
    const { table, column } = counted.parent;
    return { sql: { text: `SELECT ${column} AS n FROM ${table} WHERE id = ?`, values: [counted.value] } };
  }
  const phrase = searchOnly(db, list, spec);
  if (phrase) {
    // The trigram index alone counts a search's matches (no row of the table is read), once per
    // text until the table's rows or the searched names change: the next page's total is kept.
    const { table } = spec.searchIndex!;
    const count = { text: `SELECT count(*) AS n FROM ${table} WHERE ${table} MATCH ?`, values: [phrase] };
    const kept = readListTotals(db).then((totals) => {
      const versions = [source.table, versionName(source, spec.searchColumn!)].map((n) => totals.get(n)?.version);
      return searchCounts(db, `${table}|${phrase}`, versions.join(":"), async () => {
        const [row] = await readRows<{ n: number | string }>(db, count);
        return Number(row.n);
      });
    });
    return { kept };
  }
  // The suffix index counts a search it answers without reading the table's rows.
  const sql = suffixes?.count ?? {
    text: `SELECT count(*) AS n FROM ${source.from} WHERE ${where.text}`,
    values: where.values,
  };
  const names = isPostgres(db) ? searchCountNames(list, spec, source) : undefined;
  if (names) {
    // Other processes write too: the count is kept under the versions its statement read with it
    // (kept only if each name has one), and used for the next page if that page's statement reads
    // the same versions (withCheckedVersions).
    const key = `${source.table}|${where.text}|${JSON.stringify(where.values)}`;
    const known = guessVersions ? searchCounts.latest(db, key) : undefined;
    if (known) return { kept: known.value, guard: { ...versionsGuard(names), expected: known.versions } };
    return { sql, ofWhere: true, guard: versionsGuard(names), keepAs: { key, names } };
  }
  return { sql, ofWhere: true };
}

const MATCHED_COUNT = "SELECT count(*) AS n FROM matched";

/**
 * A search's matching rows with the columns its page is sorted by, read once (MATERIALIZED) for its
 * count and its page: otherwise each read the trigram index and the matches' rows on its own.
 */
function matchedRows(list: ListQuery, source: ListSource, where: Sql): Sql {
  const columns = [...new Set([source.idColumn, ...list.sort.map((s) => s.column)])];
  return {
    text: `WITH matched AS MATERIALIZED (SELECT ${columns.join(", ")} FROM ${source.from} WHERE ${where.text})`,
    values: where.values,
  };
}

/**
 * The list_totals names a search's count depends on: the table's (rows added or removed) and its
 * searched and filtered columns'. Undefined without a search, or with a column of a joined table.
 */
function searchCountNames(list: ListQuery, spec: ListSpec, source: ListSource): string[] | undefined {
  if (!list.search) return undefined;
  const columns = [spec.searchColumn!, ...list.filters.map((f) => f.column)];
  if (columns.some((c) => aliasOf(c) !== aliasOf(source.idColumn))) return undefined;
  return [...new Set([source.table, ...columns.map((c) => versionName(source, c))])].sort();
}

/** The column a list's page can start from a mark of: one sorted column of the table, then the id, one direction. */
function markedOrder(list: ListQuery, source: ListSource, totals: ListTotals): MarkedOrder | undefined {
  if (list.search || (list.filters.length > 0 && !countedFilter(list, source))) return undefined;
  const [first, second] = list.sort;
  if (!first || first.nullable) return undefined;
  const order = { column: first.column, idColumn: source.idColumn, order: first.order };
  if (first.column === source.idColumn) return order;
  if (second?.column !== source.idColumn || second.order !== first.order) return undefined;
  // A column of the table itself, not of a joined one (a client's name).
  if (aliasOf(first.column) !== aliasOf(source.idColumn)) return undefined;
  return totals.has(versionName(source, first.column)) ? order : undefined;
}

const aliasOf = (column: string) => column.slice(0, column.indexOf(".") + 1);
const versionName = (source: ListSource, column: string) => `${source.table}.${columnName(column)}`;

/**
 * The window of a page: LIMIT and OFFSET (sqlite needs a LIMIT before an OFFSET: -1 is none).
 * sqlite plans with the value bound to a LIMIT, and to an OFFSET over its search index (a virtual
 * table), so binding one has the kept statement parsed and planned again on every call (13% of
 * the server's CPU on pages of projects by name, measured with perf): sqlite's LIMIT is written
 * out, and its OFFSET cast, which makes it a value read as the statement runs.
 */
function windowSql(limit: number, offset: number, pg: boolean): Sql {
  if (!Number.isSafeInteger(limit)) throw new Error(`not a page size: ${limit}`);
  const limitText = limit < 0 ? (offset > 0 ? " LIMIT -1" : "") : ` LIMIT ${pg ? "?" : limit}`;
  const offsetText = offset > 0 ? ` OFFSET ${pg ? "?" : "CAST(? AS INTEGER)"}` : "";
  return {
    text: limitText + offsetText,
    values: [...(limit >= 0 && pg ? [limit] : []), ...(offset > 0 ? [offset] : [])],
  };
}

/** The statement choosing a page's ids, in the list's order. */
async function pageIds(query: PageQuery): Promise<Sql & { guard?: VersionsGuard }> {
  const { db, list, spec, source, where, guessVersions } = query;
  const { limit, offset } = list.range!;
  const pg = isPostgres(db);
  // The joins only when the sort needs one: PostgreSQL then walks an index for a deep page
  // instead of sorting the whole table (bench/README.md before 837a6a9, Load).
  const alias = aliasOf(source.idColumn);
  const joined = source.joined && list.sort.some((s) => s.column.includes(".") && !s.column.startsWith(alias));
  const conditions = where ? [where] : [];
  if (query.suffixes) return query.suffixes.pageIds(windowSql(limit, offset, pg));
  if (query.matched) {
    // Aliased as the table is, so that the list's order reads the same columns.
    const window = windowSql(limit, offset, pg);
    return {
      text: `SELECT ${source.idColumn} FROM matched ${alias.slice(0, -1)} ORDER BY ${orderSql(list.sort, pg)}${window.text}`,
      values: window.values,
    };
  }
  const ids = (start: number, seek?: Sql): Sql => {
    const all = seek ? [...conditions, seek] : conditions;
    const window = windowSql(limit, start, pg);
    return {
      text:
        `SELECT ${source.idColumn} FROM ${joined ? source.joined : source.from}` +
        (all.length > 0 ? ` WHERE ${all.map((c) => `(${c.text})`).join(" AND ")}` : "") +
        ` ORDER BY ${orderSql(list.sort, pg)}${window.text}`,
      values: [...all.flatMap((c) => c.values), ...window.values],
    };
  };
  const phrase = searchOnly(db, list, spec);
  if (phrase && list.sort.length === 1 && list.sort[0].column === source.idColumn) {
    // In id order, the index gives the page itself: its rowids are the ids, in order.
    const { table } = spec.searchIndex!;
    const window = windowSql(limit, offset, pg);
    return {
      text: `SELECT rowid AS id FROM ${table} WHERE ${table} MATCH ? ORDER BY rowid ${list.sort[0].order}${window.text}`,
      values: [phrase, ...window.values],
    };
  }
  if (limit < 0 || offset <= MARK_EVERY) return ids(offset);
  // PostgreSQL reads list_totals on every call (other processes write): the last rows read are a
  // guess the page's statement checks (withCheckedVersions), taken only when marks are kept for them.
  const guessed = guessVersions && pg ? lastReadListTotals(db) : undefined;
  const totals = guessed ?? (await readListTotals(db));
  const order = markedOrder(list, source, totals);
  if (!order) return ids(offset);
  const filter = countedFilter(list, source);
  const key = [source.table, filter ? `${filter.column}=${filter.value}` : "", order.column, order.order].join("|");
  const names = [
    source.table,
    versionName(source, order.column),
    ...(filter ? [versionName(source, filter.column)] : []),
  ];
  const versions = names.map((name) => totals.get(name)?.version ?? 0).join(":");
  const rows = { from: source.from, where };
  const marks = await (guessed ? keptPageMarks(db, key, versions) : pageMarks(db, key, versions, rows, order));
  if (!marks) return pageIds({ ...query, guessVersions: false });
  const at = Math.min(Math.floor(offset / MARK_EVERY), marks.length - 1);
  if (at <= 0) return ids(offset);
  const [markKey, markId] = marks[at];
  const seek = {
    text: `(${order.column}, ${order.idColumn}) ${order.order === "asc" ? ">=" : "<="} (?, ?)`,
    values: [markKey, markId],
  };
  return { ...ids(offset - at * MARK_EVERY, seek), guard: guessed && versionsGuard(names, guessed) };
}

/**
 * A statement reading list_totals' versions of `names` as one text (`name=version,…` in name
 * order), and, given `totals`, of those it has, that text as `totals` has it.
 */
function versionsGuard(names: string[], totals?: ListTotals): VersionsGuard {
  const kept = [...new Set(names)].filter((name) => !totals || totals.has(name)).sort();
  return {
    text:
      `SELECT string_agg(name || '=' || version, ',' ORDER BY name COLLATE "C") FROM list_totals ` +
      `WHERE name IN (${kept.map(() => "?").join(", ")})`,
    values: kept,
    expected: totals && kept.map((name) => `${name}=${totals.get(name)!.version}`).join(","),
  };
}
