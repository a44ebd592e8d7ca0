import type { ListQuery, ListSpec, Sql } from "../http/list-query";

/**
 * A PostgreSQL search's matches read from the searched column's suffix table (ListSpec.suffixIndex,
 * migration create_project_name_suffixes) as the table `matched`, with the columns the list is
 * sorted by: the suffixes that start with the lower-cased text, one range of their index. The
 * same rows `lower(name) LIKE '%text%'` finds, in the same order, without reading one of them.
 *
 * Undefined where that table cannot answer alone: no such table, another filter, a sort by a
 * column it does not keep, a text longer than the suffixes kept, or one with a lone surrogate
 * (which PostgreSQL receives as U+FFFD, so its range would be the wrong one).
 */
export function suffixMatches(list: ListQuery, spec: ListSpec): Sql | undefined {
  const index = spec.suffixIndex;
  if (!index || !list.search || list.filters.length > 0) return undefined;
  if (!list.sort.every((s) => Object.hasOwn(index.columns, s.column))) return undefined;
  const needle = list.search.toLowerCase();
  if ([...needle].length > index.longest || /\p{Cs}/u.test(needle)) return undefined;
  const end = prefixEnd(needle);
  if (end === undefined) return undefined;
  const columns = Object.entries(index.columns).map(([column, own]) => `${own} AS ${column.slice(column.indexOf(".") + 1)}`);
  // The range finds the suffixes; starts_with says in words what the range means.
  return {
    text:
      `WITH matched AS MATERIALIZED (SELECT DISTINCT ${columns.join(", ")} FROM ${index.table} ` +
      `WHERE suffix >= ? AND suffix < ? AND starts_with(suffix, ?))`,
    values: [needle, end, needle],
  };
}

const LAST_CODE_POINT = 0x10ffff;
const BEFORE_SURROGATES = 0xd7ff;
const AFTER_SURROGATES = 0xe000;

/**
 * The least text above every text that starts with `prefix` in code point order, which is the
 * byte order of UTF-8 and so of the "C" collation: the prefix with its last code point raised by
 * one (dropping trailing U+10FFFF, which has no next). Undefined if the prefix is all U+10FFFF.
 */
export function prefixEnd(prefix: string): string | undefined {
  const points = [...prefix].map((c) => c.codePointAt(0)!);
  while (points.length > 0) {
    const last = points.pop()!;
    if (last < LAST_CODE_POINT) {
      points.push(last === BEFORE_SURROGATES ? AFTER_SURROGATES : last + 1);
      return String.fromCodePoint(...points);
    }
  }
  return undefined;
}
