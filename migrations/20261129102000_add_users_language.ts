import type { Knex } from "knex";

/**
 * The web app's language each user chose in their user menu ("en" or "de"); English until they
 * choose. Plain SQL: both databases add the column in place (knex would rebuild the sqlite table
 * and its triggers).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw("ALTER TABLE users ADD COLUMN language VARCHAR(8) NOT NULL DEFAULT 'en'");
}

/** Forward only: a user's chosen language is not thrown away by a rollback. */
export async function down(): Promise<void> {
  throw new Error("20261129102000_add_users_language goes forward only");
}
