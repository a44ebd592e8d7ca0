import type { Knex } from "knex";
import { isPostgres } from "./transactions";

/** An API object as SQL: each key's value is an SQL expression, or a nested object. */
export interface JsonShape {
  [key: string]: string | JsonShape;
}

/**
 * Builds API objects as JSON text in the database itself, so a list page comes back as one short
 * text per row instead of a dozen typed columns that the driver turns into JavaScript values one
 * by one, and the body is those texts joined. Expressions are trusted SQL written in repositories
 * (column names, constants), never request input.
 */
export interface JsonSql {
  /** The object; `AS name` is up to the caller. */
  object(shape: JsonShape): string;
  /** The object when `condition` holds, else JSON null. */
  objectWhen(condition: string, shape: JsonShape): string;
  /** A stored timestamp as the API writes it: ISO 8601 UTC with milliseconds (`toIso`), or null. */
  iso(expression: string): string;
  /** A JSON true or false. */
  bool(condition: string): string;
  /** A select expression giving the object's text in a column named `alias`. */
  column(shape: JsonShape, alias: string): string;
}

function pairs(shape: JsonShape, object: (shape: JsonShape) => string): string {
  return Object.entries(shape)
    .map(([key, value]) => `'${key}', ${typeof value === "string" ? value : object(value)}`)
    .join(", ");
}

const D = "[0-9]";
/** `2026-11-27T00:15:37.000Z`, as Date.prototype.toISOString writes it. */
const ISO_PATTERN = `${D}${D}${D}${D}-${D}${D}-${D}${D}T${D}${D}:${D}${D}:${D}${D}.${D}${D}${D}Z`;

const sqliteJson: Omit<JsonSql, "column"> = {
  object: (shape) => `json_object(${pairs(shape, sqliteJson.object)})`,
  // json() keeps the nested object JSON rather than a string once it has passed through CASE.
  objectWhen: (condition, shape) => `json(CASE WHEN ${condition} THEN ${sqliteJson.object(shape)} END)`,
  // What the server writes (toISOString) is already that text and is kept as it is: strftime on
  // every date took about 90 µs of a page of 25 projects. It still normalises any other date text,
  // as new Date(...).toISOString() did.
  iso: (expression) =>
    `CASE WHEN ${expression} GLOB '${ISO_PATTERN}' THEN ${expression} ELSE strftime('%Y-%m-%dT%H:%M:%fZ', ${expression}) END`,
  bool: (condition) => `json(CASE WHEN ${condition} THEN 'true' ELSE 'false' END)`,
};

const pgJson: Omit<JsonSql, "column"> = {
  object: (shape) => `json_build_object(${pairs(shape, pgJson.object)})`,
  objectWhen: (condition, shape) => `CASE WHEN ${condition} THEN ${pgJson.object(shape)} END`,
  // Text columns holding a date (delivery settings) are cast first; timestamptz stays as it is.
  iso: (expression) => `to_char((${expression})::timestamptz AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`,
  bool: (condition) => `(${condition})`,
};

export function jsonSql(db: Knex): JsonSql {
  const dialect = isPostgres(db) ? pgJson : sqliteJson;
  // PostgreSQL's driver would parse a json column: as text it is passed on untouched.
  const asText = isPostgres(db) ? "::text" : "";
  return { ...dialect, column: (shape, alias) => `${dialect.object(shape)}${asText} AS ${alias}` };
}

/** An SQL text that depends only on the dialect, built once per dialect (a JSON column is over a kilobyte). */
export function oncePerDialect(build: (db: Knex) => string): (db: Knex) => string {
  const built = new Map<string, string>();
  return (db) => {
    const dialect = db.client.dialect as string;
    let text = built.get(dialect);
    if (text === undefined) built.set(dialect, (text = build(db)));
    return text;
  };
}
