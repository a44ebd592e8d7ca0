import type { Knex } from "knex";

/** On: every signed-in person must turn on two-factor sign-in before doing anything else. Off by default. */
export async function up(knex: Knex): Promise<void> {
  await knex.raw("ALTER TABLE studio_settings ADD COLUMN require_two_factor BOOLEAN NOT NULL DEFAULT FALSE");
}

/** Forward only: the studio's choice is not thrown away by a rollback. */
export async function down(): Promise<void> {
  throw new Error("20261129105500_add_studio_settings_require_two_factor goes forward only");
}
