import crypto from "node:crypto";
import path from "node:path";
import pg from "pg";

/** Set by the `test:pg` run's global setup: the throwaway cluster's maintenance database URL. */
export const PG_TEST_URL_ENV = "PHOTODROP_TEST_PG_URL";

export const testingOnPg = () => Boolean(process.env[PG_TEST_URL_ENV]);

export interface TestDatabase {
  url: string;
  drop(): Promise<void>;
}

/**
 * The database a test app runs on: a sqlite file in the test's folder, or under `npm run test:pg`
 * a database of its own in the run's PostgreSQL cluster, so test files can run in parallel.
 */
export async function createTestDatabase(dir: string, opts: { sqliteOnly?: boolean } = {}): Promise<TestDatabase> {
  const clusterUrl = process.env[PG_TEST_URL_ENV];
  if (!clusterUrl || opts.sqliteOnly) return { url: path.join(dir, "db.sqlite3"), drop: async () => {} };
  const name = `photodrop_${crypto.randomBytes(8).toString("hex")}`;
  await maintenance(clusterUrl, `CREATE DATABASE ${name}`);
  const url = new URL(clusterUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: () => maintenance(clusterUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`),
  };
}

async function maintenance(clusterUrl: string, sql: string): Promise<void> {
  const client = new pg.Client(clusterUrl);
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}
