import type { Knex } from "knex";

/**
 * On: a gallery is shown in the visitor's browser language (Accept-Language) when it is one of
 * ours, before the project's and the studio's. Off by default: the studio decides.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw("ALTER TABLE studio_settings ADD COLUMN follow_browser_language BOOLEAN NOT NULL DEFAULT FALSE");
}

/** Forward only: the studio's choice is not thrown away by a rollback. */
export async function down(): Promise<void> {
  throw new Error("20261129100200_add_studio_settings_follow_browser_language goes forward only");
}
