import type { Knex } from "knex";

/**
 * Each publish claim names its build. Only the build named on the row may record a result, so a
 * build that was cancelled or overtaken by a newer publish can neither publish nor fail it.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable("projects", (t) => {
    t.string("publish_build_id", 64).nullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable("projects", (t) => {
    t.dropColumn("publish_build_id");
  });
}
