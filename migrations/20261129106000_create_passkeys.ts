import type { Knex } from "knex";

/** A user's passkeys (WebAuthn credentials): the public key only, the counter, the relying party it belongs to. */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable("passkeys", (t) => {
    t.increments("id");
    t.string("user_uid", 40).notNullable().references("uid").inTable("users").onDelete("CASCADE").index();
    // base64url, as the browser sends it: the key a sign-in finds the passkey by.
    t.string("credential_id", 1400).notNullable().unique();
    t.text("public_key").notNullable();
    // The authenticator's signature counter: a sign-in that does not raise it is a cloned authenticator's.
    t.bigInteger("counter").notNullable().defaultTo(0);
    t.string("transports", 200).nullable();
    t.string("rp_id", 255).notNullable();
    t.string("name", 100).notNullable();
    t.timestamp("created_at", { useTz: true }).notNullable();
    t.timestamp("last_used_at", { useTz: true }).nullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable("passkeys");
}
