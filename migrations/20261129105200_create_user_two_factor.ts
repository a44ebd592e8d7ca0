import type { Knex } from "knex";

/** A user's authenticator-app secret (TOTP), sealed with a key of `app_secrets`; on once confirmed. */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable("user_two_factor", (t) => {
    t.string("user_uid", 40).primary().references("uid").inTable("users").onDelete("CASCADE");
    t.text("secret_sealed").notNullable();
    // Null while enrolment waits for its first right code.
    t.timestamp("confirmed_at", { useTz: true }).nullable();
    // The 30-second step of the last code accepted: a code of that step or an earlier one is a replay.
    t.bigInteger("last_used_step").nullable();
    t.timestamp("created_at", { useTz: true }).notNullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable("user_two_factor");
}
