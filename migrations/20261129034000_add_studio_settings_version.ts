import type { Knex } from "knex";

/**
 * Each edit of the studio settings row through the API counts up `version` (its ETag: a write whose
 * If-Match names an older one is refused with 412) and names the staff member who made it. Plain
 * SQL: both databases add the columns in place (knex would rebuild the sqlite table and its triggers).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw("ALTER TABLE studio_settings ADD COLUMN version INTEGER NOT NULL DEFAULT 1");
  await knex.raw("ALTER TABLE studio_settings ADD COLUMN updated_by VARCHAR(64) NULL");
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable("studio_settings", (t) => {
    t.dropColumn("updated_by");
    t.dropColumn("version");
  });
}
