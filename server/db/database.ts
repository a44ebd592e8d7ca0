import knex, { type Knex } from "knex";
import { runtimeModules } from "../runtime-modules";
import { isPostgresUrl, knexConfigFor, knexReadConfigFor, shareWriteCount } from "./dialect";
import { keepsPlans } from "./prepared-reads";

export type Db = Knex;

export function openDatabase(databaseUrl: string, opts: { poolMax?: number } = {}): Db {
  return knex(knexConfigFor(databaseUrl, opts));
}

/** The pool for reads outside transactions, opened after migrations: `db` itself where it needs no other. */
export function openReadPool(databaseUrl: string, db: Db, opts: { poolMax?: number } = {}): Db {
  const config = knexReadConfigFor(databaseUrl, opts);
  if (!config) return db;
  const reads = knex(config);
  shareWriteCount(reads, db);
  if (isPostgresUrl(databaseUrl)) keepsPlans(reads, db);
  return reads;
}

/**
 * Migrations are the TypeScript modules in /migrations (compiled into dist/migrations by the
 * production build), loaded through the app's own module loader rather than knex's file loader.
 */
function migrationSource(upTo?: string): Knex.MigrationSource<RuntimeMigration> {
  return {
    async getMigrations() {
      return runtimeModules("migrations", /^\d{14}_[\w-]+\.ts$/).filter((m) => !upTo || m.name <= upTo);
    },
    getMigrationName: (migration) => migration.name,
    getMigration: (migration) => migration.load() as Promise<Knex.Migration>,
  };
}

type RuntimeMigration = ReturnType<typeof runtimeModules>[number];

/** Runs every migration not run yet; `upTo` (a migration's file name) stops there, for upgrade tests. */
export async function migrate(db: Db, upTo?: string): Promise<void> {
  await db.migrate.latest({ migrationSource: migrationSource(upTo) });
}

/** ISO 8601 UTC for storing and answering dates the same way on every database. */
export const nowIso = () => new Date().toISOString();

export function toIso(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  return new Date(value as string).toISOString();
}
