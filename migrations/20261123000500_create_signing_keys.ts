import type { Knex } from "knex";

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable("signing_keys", (t) => {
    t.string("kid", 64).primary();
    t.string("algorithm", 16).notNullable();
    t.text("public_jwk").notNullable();
    t.text("private_jwk").notNullable();
    t.timestamp("created_at", { useTz: true }).notNullable().index();
    t.timestamp("retired_at", { useTz: true }).nullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable("signing_keys");
}
