import type { Knex } from "knex";

/**
 * One row per sign-in (a refresh-token family: its id is the family's), so a user can see where
 * they are signed in and end one; access tokens carry its id and die with it.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable("user_sessions", (t) => {
    t.string("id", 40).primary();
    t.string("user_uid", 40).notNullable().references("uid").inTable("users").onDelete("CASCADE").index();
    t.string("user_agent", 512).nullable();
    t.string("address", 64).nullable();
    t.timestamp("created_at", { useTz: true }).notNullable();
    t.timestamp("last_active_at", { useTz: true }).notNullable();
    // The newest refresh token's expiry: past it the sign-in is over without anyone ending it.
    t.timestamp("expires_at", { useTz: true }).notNullable();
    t.timestamp("ended_at", { useTz: true }).nullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable("user_sessions");
}
