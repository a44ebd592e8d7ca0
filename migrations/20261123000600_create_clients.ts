import type { Knex } from "knex";

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable("clients", (t) => {
    t.increments("id");
    t.string("name", 200).notNullable().index();
    t.timestamp("created_at", { useTz: true }).notNullable().index();
    t.timestamp("updated_at", { useTz: true }).notNullable().index();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable("clients");
}
