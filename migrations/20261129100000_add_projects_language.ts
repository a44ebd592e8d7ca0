import type { Knex } from "knex";

/**
 * The language a project's gallery and its clients' mails are in (server/i18n/languages.ts);
 * null: the studio's. Plain SQL: both databases add a nullable column in place (knex would
 * rebuild the sqlite table, and its triggers with it).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw("ALTER TABLE projects ADD COLUMN language VARCHAR(16) NULL");
}

/** Forward only: a project's chosen language is not thrown away by a rollback. */
export async function down(): Promise<void> {
  throw new Error("20261129100000_add_projects_language goes forward only");
}
