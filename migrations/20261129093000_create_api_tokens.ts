import type { Knex } from "knex";

/** API tokens for scripts and integrations (server/api-tokens): only a hash of each is stored. */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable("api_tokens", (t) => {
    t.increments("id");
    t.string("user_uid", 40).notNullable().references("uid").inTable("users").onDelete("CASCADE").index();
    t.string("name", 100).notNullable();
    t.string("scope", 10).notNullable();
    // What lists show: `pd_` and the next 8 characters.
    t.string("prefix", 16).notNullable();
    t.string("token_hash", 64).notNullable().unique();
    t.timestamp("expires_at", { useTz: true }).nullable();
    t.timestamp("created_at", { useTz: true }).notNullable();
    t.timestamp("last_used_at", { useTz: true }).nullable();
    t.string("last_used_address", 64).nullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable("api_tokens");
}
