import crypto from "node:crypto";
import type { Knex } from "knex";
import pg from "pg";
import type { Sql } from "../http/list-query";
import { isPostgres } from "./transactions";

/** Prepared statements kept per sqlite connection, most recently used last. */
const MAX_STATEMENTS = 64;

interface SqliteStatement {
  all(values: unknown[], done: (err: Error | null, rows: unknown[]) => void): void;
  finalize(done: () => void): void;
}

interface SqliteConnection {
  prepare(sql: string, done?: (err: Error | null) => void): SqliteStatement;
}

interface PgConnection {
  query(read: NamedRead): void;
}

/**
 * A read of a named statement, given to the driver as a query of its own: a plain config object
 * is copied by pg on every call with `Object.defineProperties`, into an object in dictionary mode
 * that every later read of it looks up slowly (3.3% of the main thread on a page of projects).
 */
class NamedRead extends pg.Query {
  declare name: string;
  constructor(name: string, text: string, values: unknown[], done: (err: Error | undefined, rows: unknown[]) => void) {
    super(text, values, (err, result) => done(err, result?.rows));
    this.name = name;
  }
}

interface PooledClient {
  acquireConnection(): Promise<unknown>;
  releaseConnection(connection: unknown): Promise<void>;
  emit(event: string, data: unknown): void;
}

const statements = new WeakMap<object, Map<string, SqliteStatement>>();

/**
 * Runs a read (a SELECT) with its statement prepared once per connection and kept, instead of
 * parsed and planned again on every call as knex's queries are: a list page's statement (a JSON
 * object per row, subqueries, a join) took longer to prepare than to run. sqlite keeps the
 * statement objects (at most MAX_STATEMENTS per connection, finalized before the connection
 * closes: see finalizeStatements); PostgreSQL keeps named statements per connection. Knex's
 * `query` event is still emitted, so whoever watches queries sees these too. Inside a
 * transaction the transaction's own connection runs it, unprepared.
 */
export async function readRows<Row>(db: Knex, { text, values }: Sql): Promise<Row[]> {
  if (db.isTransaction) {
    const result = await db.raw(text, values as Knex.Value[]);
    return (isPostgres(db) ? result.rows : result) as Row[];
  }
  const client = db.client as unknown as PooledClient;
  client.emit("query", { method: "select", sql: text, bindings: values });
  const connection = await client.acquireConnection();
  try {
    if (isPostgres(db)) return (await pgRows(connection as PgConnection, text, values)) as Row[];
    return (await sqliteRows(connection as SqliteConnection, text, values)) as Row[];
  } finally {
    await client.releaseConnection(connection);
  }
}

function keptStatements(connection: SqliteConnection): Map<string, SqliteStatement> {
  let kept = statements.get(connection);
  if (!kept) statements.set(connection, (kept = new Map()));
  return kept;
}

function sqliteRows(connection: SqliteConnection, text: string, values: unknown[]): Promise<unknown[]> {
  const kept = keptStatements(connection);
  return new Promise((resolve, reject) => {
    // A statement that failed fails every time: it is not kept.
    const failed = (err: Error) => {
      if (kept.get(text) === statement) kept.delete(text);
      reject(err);
    };
    let statement = kept.get(text);
    if (statement) kept.delete(text);
    // One that fails to prepare says so only here: the `all` queued on it is never called back.
    else statement = connection.prepare(text, (err) => err && failed(err));
    kept.set(text, statement);
    while (kept.size > MAX_STATEMENTS) {
      const [oldest, old] = kept.entries().next().value!;
      kept.delete(oldest);
      old.finalize(() => {});
    }
    statement.all([...values], (err, rows) => (err ? failed(err) : resolve(rows)));
  });
}

/** `?` placeholders as PostgreSQL's `$1`, `$2`…, outside quoted text. */
function numbered(text: string): string {
  let n = 0;
  return text.replace(/'(?:[^']|'')*'|"(?:[^"]|"")*"|\?/g, (match) => (match === "?" ? `$${++n}` : match));
}

const pgStatements = new Map<string, { name: string; text: string }>();

function pgRows(connection: PgConnection, text: string, values: unknown[]): Promise<unknown[]> {
  let statement = pgStatements.get(text);
  if (!statement) {
    statement = {
      name: `read_${crypto.createHash("sha1").update(text).digest("hex").slice(0, 24)}`,
      text: numbered(text),
    };
    pgStatements.set(text, statement);
    if (pgStatements.size > 1000) pgStatements.delete(pgStatements.keys().next().value!);
  }
  const { name, text: numberedText } = statement;
  return new Promise((resolve, reject) =>
    connection.query(new NamedRead(name, numberedText, values, (err, rows) => (err ? reject(err) : resolve(rows)))),
  );
}

/** PostgreSQL pools that keep one generic plan per statement, and the pool beside each that plans every call. */
const planningPools = new WeakMap<Knex, Knex>();

/** Marks `keeping` as a pool whose connections keep generic plans, with `planning` for statements that need their own. */
export function keepsPlans(keeping: Knex, planning: Knex): void {
  planningPools.set(keeping, planning);
}

/**
 * The pool to read a statement from whose best plan depends on its values (a search's pattern,
 * a filter's rarity): `db` itself unless `db` keeps generic plans.
 */
export function planningEachCall(db: Knex): Knex {
  return planningPools.get(db) ?? db;
}

/** Finalizes a sqlite connection's kept statements: sqlite will not close a connection that has any. */
export async function finalizeStatements(connection: object): Promise<void> {
  const kept = statements.get(connection);
  if (!kept) return;
  statements.delete(connection);
  await Promise.all([...kept.values()].map((s) => new Promise<void>((resolve) => s.finalize(() => resolve()))));
}
