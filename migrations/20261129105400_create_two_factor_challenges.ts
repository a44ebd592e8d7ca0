import type { Knex } from "knex";

/** A sign-in's pending second step: the right password was given, the code is still owed. Hashes only. */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable("two_factor_challenges", (t) => {
    t.increments("id");
    t.string("user_uid", 40).notNullable().references("uid").inTable("users").onDelete("CASCADE").index();
    t.string("challenge_hash", 64).notNullable().unique();
    t.timestamp("expires_at", { useTz: true }).notNullable();
    t.timestamp("used_at", { useTz: true }).nullable();
    t.timestamp("created_at", { useTz: true }).notNullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable("two_factor_challenges");
}
