import type { Knex } from "knex";

/**
 * The studio's time zone (an IANA name such as `Europe/Berlin`), in which the client's mails give
 * the link's expiry; null until an admin chooses one (the server's own zone). Plain SQL: both
 * databases add the column in place (knex would rebuild the sqlite table and its triggers).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw("ALTER TABLE studio_settings ADD COLUMN time_zone VARCHAR(64) NULL");
}

/** Forward only: a studio's chosen zone is not thrown away by a rollback. */
export async function down(): Promise<void> {
  throw new Error("20261129060000_add_studio_settings_time_zone goes forward only");
}
