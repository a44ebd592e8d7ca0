import type { Knex } from "knex";

/**
 * The studio's language for its clients' galleries and mails, unless a project chooses its own;
 * null until an admin chooses one: English.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw("ALTER TABLE studio_settings ADD COLUMN language VARCHAR(16) NULL");
}

/** Forward only: the studio's chosen language is not thrown away by a rollback. */
export async function down(): Promise<void> {
  throw new Error("20261129100100_add_studio_settings_language goes forward only");
}
