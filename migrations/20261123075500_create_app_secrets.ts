import type { Knex } from "knex";

export async function up(knex: Knex): Promise<void> {
  // Server-side secrets generated on first use (e.g. the key that signs attachment links).
  await knex.schema.createTable("app_secrets", (t) => {
    t.string("name", 64).primary();
    t.text("value").notNullable();
    t.timestamp("created_at", { useTz: true }).notNullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable("app_secrets");
}
