import fs from "node:fs";
import path from "node:path";
import type { Knex } from "knex";

// Error messages keep `?` placeholders instead of the bound values, so a failed query never
// carries a password hash or token into a log line.
const common = { compileSqlOnError: false } as const;

function sqliteFile(databaseUrl: string): string {
  return databaseUrl.replace(/^sqlite:(\/\/)?/, "");
}

/**
 * The only place that knows which database is underneath. Everything sqlite-specific
 * (connection pragmas, file paths) lives here, so PostgreSQL is a change of DATABASE_URL.
 */
export function knexConfigFor(databaseUrl: string): Knex.Config {
  if (/^postgres(ql)?:\/\//.test(databaseUrl)) {
    return { ...common, client: "pg", connection: databaseUrl, pool: { min: 0, max: 10 } };
  }
  const filename = sqliteFile(databaseUrl);
  if (filename !== ":memory:") fs.mkdirSync(path.dirname(path.resolve(filename)), { recursive: true });
  return {
    ...common,
    client: "sqlite3",
    connection: { filename },
    useNullAsDefault: true,
    pool: {
      min: 1,
      max: 1,
      // sqlite turns these off for every new connection, so each one is set per connection.
      afterCreate(conn: SqliteConnection, done: (err: Error | null, conn: unknown) => void) {
        const pragmas = ["foreign_keys = ON", "journal_mode = WAL", "synchronous = NORMAL", "busy_timeout = 5000"];
        const next = (i: number) => {
          if (i === pragmas.length) return done(null, conn);
          conn.run(`PRAGMA ${pragmas[i]}`, (err) => (err ? done(err, conn) : next(i + 1)));
        };
        next(0);
      },
    },
  };
}

interface SqliteConnection {
  run(sql: string, cb?: (err: Error | null) => void): void;
}

/** True when an error is a unique-constraint violation, whatever the database. */
export function isUniqueViolation(err: unknown): boolean {
  const e = err as { code?: string; errno?: number; message?: string };
  return e?.code === "23505" || (e?.code === "SQLITE_CONSTRAINT" && /UNIQUE/.test(e.message ?? ""));
}
