import type { Knex } from "knex";

// Access tokens carry the generation they were issued in; signing the account out everywhere
// (password reset, ADMIN_PASSWORD reset at start, an untrusted password removed) bumps it, so
// every earlier access token is refused at once instead of living out its lifetime.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable("users", (t) => {
    t.integer("session_generation").notNullable().defaultTo(0);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable("users", (t) => {
    t.dropColumn("session_generation");
  });
}
