import type { Knex } from "knex";

/**
 * The addresses each account has signed in from, kept after its sessions end, so a sign-in from
 * somewhere new is told apart from one at a known place even after signing out everywhere.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable("sign_in_places", (t) => {
    t.string("user_uid", 40).notNullable().references("uid").inTable("users").onDelete("CASCADE");
    t.string("address", 64).notNullable();
    t.timestamp("first_seen_at", { useTz: true }).notNullable();
    t.timestamp("last_seen_at", { useTz: true }).notNullable();
    t.primary(["user_uid", "address"]);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable("sign_in_places");
}
