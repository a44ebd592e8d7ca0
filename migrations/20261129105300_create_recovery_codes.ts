import type { Knex } from "knex";

/** Single-use recovery codes for two-factor sign-in, kept only as SHA-256 hashes. */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable("recovery_codes", (t) => {
    t.increments("id");
    t.string("user_uid", 40).notNullable().references("uid").inTable("users").onDelete("CASCADE").index();
    t.string("code_hash", 64).notNullable();
    t.timestamp("used_at", { useTz: true }).nullable();
    t.timestamp("created_at", { useTz: true }).notNullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable("recovery_codes");
}
