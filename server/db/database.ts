import fs from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import knex, { type Knex } from "knex";
import { knexConfigFor } from "./dialect";

export type Db = Knex;

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const migrationsDir = path.join(root, "migrations");

export function openDatabase(databaseUrl: string): Db {
  return knex(knexConfigFor(databaseUrl));
}

/**
 * Migrations are TypeScript modules in /migrations, loaded through the same module loader
 * as the app (tsx in production, vitest in tests) rather than knex's own file loader.
 */
const migrationSource: Knex.MigrationSource<string> = {
  async getMigrations() {
    return fs
      .readdirSync(migrationsDir)
      .filter((f) => /^\d{14}_[\w-]+\.ts$/.test(f))
      .sort();
  },
  getMigrationName: (name) => name,
  getMigration: (name) => import(pathToFileURL(path.join(migrationsDir, name)).href),
};

export async function migrate(db: Db): Promise<void> {
  await db.migrate.latest({ migrationSource });
}

/** ISO 8601 UTC for storing and answering dates the same way on every database. */
export const nowIso = () => new Date().toISOString();

export function toIso(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  return new Date(value as string).toISOString();
}
