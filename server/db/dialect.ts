import { createRequire } from "node:module";
import type { Knex } from "knex";
import pg from "pg";
import { finalizeStatements } from "./prepared-reads";
import { privateSqliteFile } from "./sqlite-file";

const require = createRequire(import.meta.url);

// Error messages keep `?` placeholders instead of the bound values, so a failed query never
// carries a password hash or token into a log line.
const common = { compileSqlOnError: false } as const;

export const isPostgresUrl = (databaseUrl: string) => /^postgres(ql)?:\/\//.test(databaseUrl);

/** The database's address for a message: a PostgreSQL URL without its password. */
export function describeDatabaseUrl(databaseUrl: string): string {
  if (!isPostgresUrl(databaseUrl) || !URL.canParse(databaseUrl)) return databaseUrl;
  const url = new URL(databaseUrl);
  if (url.password) url.password = "***";
  return url.toString();
}

export function sqliteFile(databaseUrl: string): string {
  return databaseUrl.replace(/^sqlite:(\/\/)?/, "");
}

/**
 * The only place that knows which database is underneath. Everything sqlite-specific
 * (connection pragmas, file paths) lives here, so PostgreSQL is a change of DATABASE_URL.
 */
export function knexConfigFor(databaseUrl: string, opts: { poolMax?: number } = {}): Knex.Config {
  if (isPostgresUrl(databaseUrl)) return pgConfig(databaseUrl, opts.poolMax ?? 10);
  const filename = sqliteFile(databaseUrl);
  if (filename !== ":memory:") privateSqliteFile(filename);
  return sqliteConfig(filename, { connections: 1, pragmas: ["journal_mode = WAL"] });
}

/** How many read-only connections a sqlite database gets beside its one writer. */
export const SQLITE_READERS = 2;

/**
 * The pool for reads outside transactions (list pages). sqlite: read-only connections beside the
 * writer, which WAL lets read while it writes, so a list never queues behind the one writer
 * connection or another list; each read sees every commit made before it began. PostgreSQL: half
 * as many connections again, each keeping one generic plan per prepared statement
 * (`force_generic_plan`): a list page's statement took as long to plan as to run, and its plan
 * does not depend on the page asked for (server/db/list-pages.ts writes the page's ids so that
 * it does not). An in-memory sqlite database is one connection's own. Null: use the main pool.
 */
export function knexReadConfigFor(databaseUrl: string, opts: { poolMax?: number } = {}): Knex.Config | null {
  if (isPostgresUrl(databaseUrl)) {
    const config = pgConfig(databaseUrl, Math.max(2, Math.ceil((opts.poolMax ?? 10) / 2)));
    config.pool!.afterCreate = (conn: pg.Client, done: (err: Error | null, conn: unknown) => void) => {
      conn.query("SET plan_cache_mode = force_generic_plan").then(
        () => done(null, conn),
        (err: Error) => done(err, conn),
      );
    };
    return config;
  }
  const filename = sqliteFile(databaseUrl);
  if (filename === ":memory:") return null;
  return sqliteConfig(filename, { connections: SQLITE_READERS, pragmas: ["query_only = ON"] });
}

function pgConfig(databaseUrl: string, poolMax: number): Knex.Config {
  return {
    ...common,
    client: "pg",
    connection: { connectionString: databaseUrl, types: pgTypes },
    pool: { min: 0, max: poolMax },
  };
}

function sqliteConfig(filename: string, opts: { connections: number; pragmas: string[] }): Knex.Config {
  return {
    ...common,
    client: ImmediateSqlite3Client as unknown as typeof Knex.Client,
    connection: { filename },
    useNullAsDefault: true,
    pool: {
      min: 1,
      max: opts.connections,
      // sqlite turns these off for every new connection, so each one is set per connection.
      afterCreate(conn: SqliteConnection, done: (err: Error | null, conn: unknown) => void) {
        const pragmas = [
          "foreign_keys = ON",
          ...opts.pragmas,
          "synchronous = NORMAL",
          `busy_timeout = ${SQLITE_BUSY_TIMEOUT_MS}`,
        ];
        const next = (i: number) => {
          if (i === pragmas.length) return done(null, conn);
          conn.run(`PRAGMA ${pragmas[i]}`, (err) => (err ? done(err, conn) : next(i + 1)));
        };
        next(0);
      },
    },
  };
}

const INT8 = 20;
const NUMERIC = 1700;
const TIMESTAMPTZ = 1184;

/**
 * Rows read the same on both databases: counts and sums (bigint, numeric) as numbers instead of
 * strings, and timestamps as the ISO 8601 UTC strings sqlite stores, instead of Date objects.
 */
const pgTypes = {
  getTypeParser(oid: number, format?: string) {
    if (oid === INT8) return (v: string) => Number(v);
    if (oid === NUMERIC) return (v: string) => Number(v);
    if (oid === TIMESTAMPTZ) return (v: string) => new Date(v).toISOString();
    return pg.types.getTypeParser(oid, format as "text");
  },
};

/** How long a statement waits for another process's write lock (a backup, a sqlite3 shell) before failing. */
export const SQLITE_BUSY_TIMEOUT_MS = 10_000;

type Sqlite3ClientClass = new (config: Knex.Config) => {
  config: Knex.Config;
  destroyRawConnection(connection: object): Promise<void>;
  transaction(...args: unknown[]): unknown;
  _query(connection: unknown, obj: { sql: string }): Promise<unknown>;
};
type TransactionClass = new (...args: unknown[]) => { query(conn: unknown, sql: string): Promise<unknown> };
const Sqlite3Client: Sqlite3ClientClass = require("knex/lib/dialects/sqlite3/index.js");
const SqliteTransaction: TransactionClass = require("knex/lib/dialects/sqlite3/execution/sqlite-transaction.js");

/**
 * Transactions take the write lock when they begin (BEGIN IMMEDIATE). A deferred BEGIN reads
 * first and asks for the lock at its first write; if another process holds it then, sqlite
 * cannot wait (the busy timeout does not apply mid-transaction) and answers SQLITE_BUSY at once.
 * The pool has one connection, so this process never waits for itself.
 */
class ImmediateTransaction extends SqliteTransaction {
  begin(conn: unknown) {
    return this.query(conn, "BEGIN IMMEDIATE;");
  }
}

/** Statements sent through each sqlite pool that may have changed data, by the pool's config. */
const writeCounts = new WeakMap<object, { count: number }>();
const READ_ONLY_STATEMENT = /^\s*select\b/i;

class ImmediateSqlite3Client extends Sqlite3Client {
  override transaction(...args: unknown[]) {
    return new ImmediateTransaction(this, ...args);
  }

  // Statements kept by prepared-reads.ts would stop sqlite from closing the connection.
  override async destroyRawConnection(connection: object) {
    await finalizeStatements(connection);
    return super.destroyRawConnection(connection);
  }

  // Counted once the statement has ended, so a read that begins after a COMMIT was counted sees
  // that commit. Keyed by config because a transaction's client shares that object, not this
  // instance; made on first use because knex's withUserParams (the migrator's) copies the config.
  override async _query(connection: unknown, obj: { sql: string }) {
    if (READ_ONLY_STATEMENT.test(obj.sql)) return super._query(connection, obj);
    const writes = writesOf(this.config);
    try {
      return await super._query(connection, obj);
    } finally {
      writes.count += 1;
    }
  }
}

function writesOf(config: object): { count: number } {
  let writes = writeCounts.get(config);
  if (!writes) writeCounts.set(config, (writes = { count: 0 }));
  return writes;
}

/**
 * A read-only pool over the same sqlite file as `writer` answers `sqliteWriteCount` with the
 * writer's count: what its reads may have missed is what the writer wrote.
 */
export function shareWriteCount(reader: Knex, writer: Knex): void {
  if (reader.client instanceof ImmediateSqlite3Client && writer.client instanceof ImmediateSqlite3Client) {
    writeCounts.set(reader.client.config, writesOf(writer.client.config));
  }
}

/**
 * How many statements that may change data this process has sent to its sqlite database; a read
 * begun when it had a value sees everything written up to that value. Undefined for PostgreSQL,
 * where other processes write too.
 */
export function sqliteWriteCount(db: Knex): number | undefined {
  if (!(db.client instanceof ImmediateSqlite3Client)) return undefined;
  return writeCounts.get(db.client.config)?.count ?? 0;
}

interface SqliteConnection {
  run(sql: string, cb?: (err: Error | null) => void): void;
}

/** True when an error is a unique-constraint violation, whatever the database. */
export function isUniqueViolation(err: unknown): boolean {
  const e = err as { code?: string; errno?: number; message?: string };
  return e?.code === "23505" || (e?.code === "SQLITE_CONSTRAINT" && /UNIQUE/.test(e.message ?? ""));
}
