import type { Knex } from "knex";

/** A passkey ceremony under way: the challenge the browser must sign, single use and short-lived. */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable("passkey_challenges", (t) => {
    t.string("id", 36).primary();
    // The user adding a passkey; null for a sign-in, where nobody is known yet.
    t.string("user_uid", 40).nullable().references("uid").inTable("users").onDelete("CASCADE").index();
    t.string("purpose", 16).notNullable();
    t.string("challenge", 128).notNullable();
    t.string("rp_id", 255).notNullable();
    t.string("origin", 300).notNullable();
    t.timestamp("expires_at", { useTz: true }).notNullable().index();
    t.timestamp("created_at", { useTz: true }).notNullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable("passkey_challenges");
}
