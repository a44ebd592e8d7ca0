import type { Knex } from "knex";

/**
 * Client addresses Photodrop has mailed, each with the random token of its unsubscribe link, and
 * when it unsubscribed. Independent of projects: an unsubscribe outlives the project it came from.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable("mail_addresses", (t) => {
    // Lower-cased: one row per mailbox however it was typed.
    t.string("email", 320).primary();
    t.string("unsubscribe_token", 64).notNullable().unique();
    t.timestamp("unsubscribed_at", { useTz: true }).nullable();
    t.timestamp("created_at", { useTz: true }).notNullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable("mail_addresses");
}
