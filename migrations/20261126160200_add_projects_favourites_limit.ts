import type { Knex } from "knex";

/**
 * How many favourites each visitor of the delivery page may choose; null: no limit. Plain SQL, as
 * for the cover: both databases add a nullable column in place (knex would rebuild the sqlite
 * table, and its triggers with it).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw("ALTER TABLE projects ADD COLUMN favourites_limit INTEGER NULL");
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable("projects", (t) => {
    t.dropColumn("favourites_limit");
  });
}
