import type { Knex } from "knex";
import { isPostgres } from "./transactions";

/** How a value is written as JSON, where the SQL alone does not say (PostgreSQL builds the text itself). */
type JsonKind = "number" | "bool" | "iso" | "json";

/** An SQL expression whose JSON form is known: made by `JsonSql`'s number, bool, iso and objectWhen. */
export class JsonValue {
  constructor(
    readonly sql: string,
    readonly kind: JsonKind,
  ) {}
}

/**
 * An API object as SQL: each key's value is an SQL expression (written as JSON by its type: text
 * escaped, numbers and booleans as they are), a `JsonValue`, or a nested object.
 */
export interface JsonShape {
  [key: string]: string | JsonValue | JsonShape;
}

/**
 * Builds API objects as JSON text in the database itself, so a list page comes back as one short
 * text per row instead of a dozen typed columns that the driver turns into JavaScript values one
 * by one, and the body is those texts joined. Expressions are trusted SQL written in repositories
 * (column names, constants), never request input.
 */
export interface JsonSql {
  /** The object's JSON text; `AS name` is up to the caller. */
  object(shape: JsonShape): string;
  /** The object when `condition` holds, else JSON null. */
  objectWhen(condition: string, shape: JsonShape): JsonValue;
  /** A number column, written as it is. */
  number(expression: string): JsonValue;
  /** A stored timestamp as the API writes it: ISO 8601 UTC with milliseconds (`toIso`), or null. */
  iso(expression: string): JsonValue;
  /** A JSON true or false (false for an unknown condition). */
  bool(condition: string): JsonValue;
  /** A select expression giving the object's text in a column named `alias`. */
  column(shape: JsonShape, alias: string): string;
}

interface Dialect {
  /** The object's text from its keys, each with its value's SQL (`value`, below). */
  object(pairs: Array<[key: string, value: string]>): string;
  /** The SQL of a value inside an object. */
  value(value: string | JsonValue): string;
  iso(expression: string): string;
  objectWhen(condition: string, object: string): string;
}

function objectOf(dialect: Dialect, shape: JsonShape): string {
  return dialect.object(
    Object.entries(shape).map(([key, value]) => [
      key,
      typeof value === "string" || value instanceof JsonValue ? dialect.value(value) : objectOf(dialect, value),
    ]),
  );
}

const D = "[0-9]";
/** `2026-11-27T00:15:37.000Z`, as Date.prototype.toISOString writes it. */
const ISO_PATTERN = `${D}${D}${D}${D}-${D}${D}-${D}${D}T${D}${D}:${D}${D}:${D}${D}.${D}${D}${D}Z`;

const sqlite: Dialect = {
  object: (pairs) => `json_object(${pairs.map(([key, value]) => `'${key}', ${value}`).join(", ")})`,
  value: (value) => {
    if (typeof value === "string") return value;
    return value.kind === "bool" ? `json(CASE WHEN ${value.sql} THEN 'true' ELSE 'false' END)` : value.sql;
  },
  // What the server writes (toISOString) is already that text and is kept as it is: strftime on
  // every date took about 90 µs of a page of 25 projects. It still normalises any other date text,
  // as new Date(...).toISOString() did.
  iso: (expression) =>
    `CASE WHEN ${expression} GLOB '${ISO_PATTERN}' THEN ${expression} ELSE strftime('%Y-%m-%dT%H:%M:%fZ', ${expression}) END`,
  // json() keeps the nested object JSON rather than a string once it has passed through CASE.
  objectWhen: (condition, object) => `json(CASE WHEN ${condition} THEN ${object} END)`,
};

/**
 * PostgreSQL's text is joined by hand: json_build_object looked up each value's type on every row
 * and took about a sixth of a project page's time in the database.
 */
const postgres: Dialect = {
  object: (pairs) =>
    `(${pairs.map(([key, value], i) => `'${i === 0 ? "{" : ","}"${key}":' || ${value}`).join(" || ")} || '}')`,
  value: (value) => {
    if (typeof value === "string") return `COALESCE(to_json(${value})::text, 'null')`;
    switch (value.kind) {
      // + 0 makes PostgreSQL refuse a column that is not a number when the statement is prepared.
      case "number":
        return `COALESCE(((${value.sql}) + 0)::text, 'null')`;
      case "bool":
        return `CASE WHEN ${value.sql} THEN 'true' ELSE 'false' END`;
      case "iso":
        return `COALESCE('"' || ${value.sql} || '"', 'null')`;
      case "json":
        return `COALESCE(${value.sql}, 'null')`;
    }
  },
  // Text columns holding a date (delivery settings) are cast first; timestamptz stays as it is.
  iso: (expression) => `to_char((${expression})::timestamptz AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`,
  objectWhen: (condition, object) => `CASE WHEN ${condition} THEN ${object} END`,
};

export function jsonSql(db: Knex): JsonSql {
  const dialect = isPostgres(db) ? postgres : sqlite;
  const object = (shape: JsonShape) => objectOf(dialect, shape);
  return {
    object,
    objectWhen: (condition, shape) => new JsonValue(dialect.objectWhen(condition, object(shape)), "json"),
    number: (expression) => new JsonValue(expression, "number"),
    iso: (expression) => new JsonValue(dialect.iso(expression), "iso"),
    bool: (condition) => new JsonValue(condition, "bool"),
    column: (shape, alias) => `${object(shape)} AS ${alias}`,
  };
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
