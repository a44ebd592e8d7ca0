import type { Knex } from "knex";
import { isPostgres } from "../db/transactions";
import { ValidationError } from "./errors";
import { MAX_ID } from "./validate";

/**
 * The list parameters `@refinedev/simple-rest` sends: `_start`, `_end`, `_sort`, `_order`, `q`,
 * and field filters (`field=v`, `field_ne`, `field_gte`, `field_lte`, `field_like`; a repeated
 * `field` means "any of"). A resource declares which fields it sorts and filters by, mapped to
 * SQL; anything else is a 400 rather than silently ignored.
 */
export interface ListSpec {
  /** API field name → SQL column or select alias to order by. */
  sortable: Record<string, string>;
  /** Sortable fields that can be NULL (PostgreSQL then needs NULLS FIRST/LAST, which no plain index serves). */
  nullable?: readonly string[];
  /** API field name → SQL column and how to read its value. */
  filterable: Record<string, { column: string; type: "int" | "text" | "bool" }>;
  /** Column that `q` searches (case-insensitive substring). */
  searchColumn?: string;
  /**
   * sqlite's trigram index of `lower(searchColumn)` (migration create_name_search_indexes) and the
   * id column its rowids are; PostgreSQL's pg_trgm index serves the LIKE itself.
   */
  searchIndex?: { table: string; idColumn: string };
  /**
   * PostgreSQL's table of every suffix (`suffix`, up to `longest` characters) of
   * `lower(searchColumn)` with the columns a page of matches is sorted by (list column → its
   * column there, the id among them): a search with no other filter, sorted by those, is read
   * from it alone (server/db/suffix-search.ts); any other by pg_trgm's index.
   */
  suffixIndex?: { table: string; longest: number; columns: Record<string, string> };
  /**
   * Sortable columns whose order is the id's own while a list_totals counter of rows out of order
   * (column → counter's name) is 0, as projects' creation times (migration add_projects_created_order).
   */
  followsId?: Record<string, string>;
  /** Tie-breaking order applied after the requested one. */
  defaultSort: Array<{ column: string; order: "asc" | "desc" }>;
}

type Operator = "eq" | "ne" | "gte" | "lte" | "like";

export interface Filter {
  column: string;
  operator: Operator;
  values: Array<string | number | boolean>;
}

export interface SortBy {
  column: string;
  order: "asc" | "desc";
  nullable?: boolean;
}

export interface ListQuery {
  range?: { offset: number; limit: number };
  sort: SortBy[];
  search?: string;
  filters: Filter[];
}

const OPERATORS: Operator[] = ["ne", "gte", "lte", "like"];

function single(name: string, value: unknown): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== "string") throw new ValidationError(`Query parameter ${name} must be given once`);
  return value;
}

function nonNegativeInt(name: string, value: string): number {
  if (!/^\d{1,15}$/.test(value)) throw new ValidationError(`Query parameter ${name} must be a non-negative integer`);
  return Number(value);
}

/** Text for a query: a NUL ends sqlite's search phrase early and PostgreSQL refuses it, so it is a 400 here. */
function queryText(name: string, value: string): string {
  if (value.includes("\u0000")) throw new ValidationError(`Query parameter ${name} must not contain a NUL character`);
  return value;
}

function readValue(field: string, raw: string, type: "int" | "text" | "bool", operator: Operator) {
  if (operator === "like" || type === "text") return queryText(field, raw);
  if (type === "bool") {
    if (raw === "true" || raw === "1") return true;
    if (raw === "false" || raw === "0") return false;
    throw new ValidationError(`Filter ${field} must be true or false`);
  }
  if (!/^-?\d{1,15}$/.test(raw)) throw new ValidationError(`Filter ${field} must be an integer`);
  // Integer columns are 32-bit on PostgreSQL: a larger value would fail the query instead of matching nothing.
  if (Math.abs(Number(raw)) > MAX_ID) throw new ValidationError(`Filter ${field} is out of range`);
  return Number(raw);
}

function parseRange(start?: string, end?: string): ListQuery["range"] {
  if (start === undefined && end === undefined) return undefined;
  const offset = start === undefined ? 0 : nonNegativeInt("_start", start);
  if (end === undefined) return { offset, limit: -1 };
  const stop = nonNegativeInt("_end", end);
  if (stop < offset) throw new ValidationError("Query parameter _end must not be below _start");
  return { offset, limit: stop - offset };
}

function parseSort(spec: ListSpec, sortParam?: string, orderParam?: string): ListQuery["sort"] {
  const fields = sortParam ? sortParam.split(",").map((s) => s.trim()) : [];
  const orders = orderParam ? orderParam.split(",").map((s) => s.trim().toLowerCase()) : [];
  const sort = fields.map((field, i) => {
    const column = Object.hasOwn(spec.sortable, field) ? spec.sortable[field] : undefined;
    if (!column) throw new ValidationError(`Cannot sort by ${field || "an empty field"}`);
    const order = orders[i] ?? "asc";
    if (order !== "asc" && order !== "desc") throw new ValidationError("Query parameter _order must be asc or desc");
    return { column, order: order as "asc" | "desc", ...(spec.nullable?.includes(field) ? { nullable: true } : {}) };
  });
  const chosen = new Set(sort.map((s) => s.column));
  // Ties run in the requested direction: an index on the sorted column (which ends in the row id)
  // then gives the whole order by itself, so a deep page walks the index instead of sorting.
  const tieOrder = sort.at(-1)?.order;
  const ties = spec.defaultSort.filter((s) => !chosen.has(s.column));
  return [...sort, ...ties.map((s) => ({ column: s.column, order: tieOrder ?? s.order }))];
}

export function parseListQuery(query: Record<string, unknown>, spec: ListSpec): ListQuery {
  const filters: Filter[] = [];
  let search: string | undefined;
  for (const [key, raw] of Object.entries(query)) {
    if (["_start", "_end", "_sort", "_order"].includes(key)) continue;
    if (key === "q") {
      const text = single(key, raw);
      search = text === undefined ? undefined : queryText(key, text).trim() || undefined;
      continue;
    }
    const operator = OPERATORS.find((op) => key.endsWith(`_${op}`)) ?? "eq";
    const field = operator === "eq" ? key : key.slice(0, -(operator.length + 1));
    const def = Object.hasOwn(spec.filterable, field) ? spec.filterable[field] : undefined;
    if (!def) throw new ValidationError(`Cannot filter by ${key}`);
    if (operator === "like" && def.type !== "text") throw new ValidationError(`Cannot search ${field} as text`);
    const rawValues = (Array.isArray(raw) ? raw : [raw]).map(String);
    if (operator !== "eq" && rawValues.length > 1)
      throw new ValidationError(`Query parameter ${key} must be given once`);
    filters.push({ column: def.column, operator, values: rawValues.map((v) => readValue(key, v, def.type, operator)) });
  }
  if (search !== undefined && !spec.searchColumn) throw new ValidationError("This list cannot be searched");
  return {
    range: parseRange(single("_start", query._start), single("_end", query._end)),
    sort: parseSort(spec, single("_sort", query._sort), single("_order", query._order)),
    search,
    filters,
  };
}

function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** Trigrams are three characters: a shorter text has none to look up. */
const SHORTEST_INDEXED_SEARCH = 3;

/**
 * The full-text query that finds names whose `lower(name)` contains `needle` (already lower-cased):
 * one phrase of its trigrams, quotes doubled. Undefined when the text is too short for trigrams.
 */
export function searchPhrase(needle: string): string | undefined {
  if ([...needle].length < SHORTEST_INDEXED_SEARCH) return undefined;
  return `"${needle.replaceAll('"', '""')}"`;
}

/** A condition, ORDER BY list or statement in SQL with `?` placeholders, and its values in order. */
export interface Sql {
  text: string;
  values: unknown[];
}

/**
 * Case-insensitive substring match: `lower(column) LIKE '%text%'` (portable: no ILIKE, no
 * sqlite-only COLLATE), which PostgreSQL serves from the column's pg_trgm index. On sqlite the
 * column's trigram index answers the same question (see create_name_search_indexes); a text of
 * one or two characters has no trigram and reads every name as before.
 */
function containsSql(column: string, text: string, pg: boolean, index?: ListSpec["searchIndex"]): Sql {
  const needle = text.toLowerCase();
  const phrase = index && !pg ? searchPhrase(needle) : undefined;
  if (index && phrase) {
    return {
      text: `${index.idColumn} IN (SELECT rowid FROM ${index.table} WHERE ${index.table} MATCH ?)`,
      values: [phrase],
    };
  }
  return { text: `lower(${column}) LIKE ? ESCAPE '\\'`, values: [`%${escapeLike(needle)}%`] };
}

/**
 * The search and filters as one condition (columns are the spec's own, never request input;
 * values are bound), or undefined when there are none: for the page and its total alike.
 */
export function filterSql(list: ListQuery, spec: ListSpec, pg: boolean): Sql | undefined {
  const conditions: Sql[] = [];
  if (list.search && spec.searchColumn)
    conditions.push(containsSql(spec.searchColumn, list.search, pg, spec.searchIndex));
  for (const f of list.filters) {
    const [first] = f.values;
    if (f.operator === "eq" && f.values.length > 1) {
      conditions.push({ text: `${f.column} IN (${f.values.map(() => "?").join(", ")})`, values: f.values });
    } else if (f.operator === "like") {
      const index = f.column === spec.searchColumn ? spec.searchIndex : undefined;
      conditions.push(containsSql(f.column, String(first), pg, index));
    } else {
      const operator = { eq: "=", ne: "<>", gte: ">=", lte: "<=" }[f.operator];
      conditions.push({ text: `${f.column} ${operator} ?`, values: [first] });
    }
  }
  if (conditions.length === 0) return undefined;
  return { text: conditions.map((c) => `(${c.text})`).join(" AND "), values: conditions.flatMap((c) => c.values) };
}

/** Adds the search and filters to a query: used for both the page and its total count. */
export function applyFilters(qb: Knex.QueryBuilder, list: ListQuery, spec: ListSpec): Knex.QueryBuilder {
  const where = filterSql(list, spec, isPostgres(qb));
  return where ? qb.whereRaw(where.text, where.values as Knex.Value[]) : qb;
}

/** A spec's column without its table's alias (`p.created_at` → `created_at`). */
export const columnName = (column: string) => column.slice(column.indexOf(".") + 1);

/**
 * The ORDER BY list of a sort. NULL sorts as the smallest value on every database, as sqlite does
 * (PostgreSQL: the largest); only where a NULL can occur, since NULLS FIRST/LAST would keep
 * PostgreSQL from walking an index.
 */
export function orderSql(sort: readonly SortBy[], pg: boolean): string {
  return sort
    .map((s) => `${s.column} ${s.order}${s.nullable && pg ? (s.order === "asc" ? " NULLS FIRST" : " NULLS LAST") : ""}`)
    .join(", ");
}

/** Adds ordering and the page window. */
export function applyPage(qb: Knex.QueryBuilder, list: ListQuery): Knex.QueryBuilder {
  if (list.sort.length > 0) qb.orderByRaw(orderSql(list.sort, isPostgres(qb)));
  if (list.range) {
    if (list.range.limit >= 0) qb.limit(list.range.limit);
    if (list.range.offset > 0) qb.offset(list.range.offset);
  }
  return qb;
}
