import type { Knex } from "knex";

/**
 * Attempts counted per key in a window that starts with the key's first attempt, in the database
 * so every process counts into the same rows. Keys are hashes: no address or e-mail is kept here.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable("rate_limit_windows", (t) => {
    t.string("key_hash", 64).primary();
    t.integer("count").notNullable();
    t.bigInteger("reset_at").notNullable().index();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable("rate_limit_windows");
}
