import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { migrate, openDatabase } from "../db/database";

/** Set by the `test:pg` run's global setup: the throwaway cluster's maintenance database URL. */
export const PG_TEST_URL_ENV = "PHOTODROP_TEST_PG_URL";
/** Set by the global setups: a database every migration has run on, which `migrated` databases start as a copy of. */
const TEMPLATE_ENV = "PHOTODROP_TEST_TEMPLATE";

export interface TestDatabase {
  url: string;
  drop(): Promise<void>;
}

/**
 * The database a test app runs on: a sqlite file in the test's folder, or under `npm run test:pg`
 * a database of its own in the run's PostgreSQL cluster, so test files can run in parallel.
 * Empty, or with `migrated` a copy of the run's migrated template (when a global setup made
 * one): a copy takes a tenth of the time of running every migration again.
 */
export async function createTestDatabase(
  dir: string,
  opts: { sqliteOnly?: boolean; migrated?: boolean } = {},
): Promise<TestDatabase> {
  const clusterUrl = process.env[PG_TEST_URL_ENV];
  const template = opts.migrated ? process.env[TEMPLATE_ENV] : undefined;
  if (!clusterUrl || opts.sqliteOnly) {
    const file = path.join(dir, "db.sqlite3");
    const sqliteTemplate = template && JSON.parse(template).sqlite;
    if (sqliteTemplate) fs.copyFileSync(sqliteTemplate, file);
    return { url: file, drop: async () => {} };
  }
  const name = `photodrop_${crypto.randomBytes(8).toString("hex")}`;
  const pgTemplate = template && JSON.parse(template).pg;
  await maintenance(clusterUrl, `CREATE DATABASE ${name}${pgTemplate ? ` TEMPLATE ${pgTemplate}` : ""}`);
  return {
    url: databaseUrl(clusterUrl, name),
    drop: () => maintenance(clusterUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`),
  };
}

/**
 * For a global setup: migrates a sqlite template in a temp folder of its own and, given the
 * cluster, a PostgreSQL one, and names them in the environment the test files' processes
 * inherit. Resolves to what removes the folder (the cluster's template goes with the cluster).
 */
export async function makeTemplates(clusterUrl?: string): Promise<() => void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "photodrop-template-"));
  const remove = () => fs.rmSync(dir, { recursive: true, force: true });
  try {
    const templates: { sqlite: string; pg?: string } = { sqlite: path.join(dir, "template.sqlite3") };
    await migrated(templates.sqlite);
    if (clusterUrl) {
      templates.pg = "photodrop_template";
      await maintenance(clusterUrl, `CREATE DATABASE ${templates.pg}`);
      await migrated(databaseUrl(clusterUrl, templates.pg));
    }
    process.env[TEMPLATE_ENV] = JSON.stringify(templates);
    return remove;
  } catch (err) {
    remove();
    throw err;
  }
}

async function migrated(url: string): Promise<void> {
  // Closed once migrated: sqlite folds its write-ahead log into the file, PostgreSQL copies only an unused template.
  const db = openDatabase(url);
  try {
    await migrate(db);
  } finally {
    await db.destroy();
  }
}

function databaseUrl(clusterUrl: string, name: string): string {
  const url = new URL(clusterUrl);
  url.pathname = `/${name}`;
  return url.toString();
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
