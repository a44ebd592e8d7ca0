import type { Knex } from "knex";

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable("contacts", (t) => {
    t.increments("id");
    t.integer("client_id").unsigned().notNullable().references("id").inTable("clients").onDelete("CASCADE").index();
    t.string("name", 200).notNullable().index();
    t.string("email", 320).nullable();
    t.string("phone_number", 50).nullable();
    t.timestamp("created_at", { useTz: true }).notNullable().index();
    t.timestamp("updated_at", { useTz: true }).notNullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable("contacts");
}
