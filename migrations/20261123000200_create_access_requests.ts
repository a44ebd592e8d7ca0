import type { Knex } from "knex";

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable("access_requests", (t) => {
    t.increments("id");
    t.string("user_uid", 40).notNullable().unique().references("uid").inTable("users").onDelete("CASCADE");
    t.text("message").nullable();
    t.timestamp("created_at", { useTz: true }).notNullable();
    t.timestamp("updated_at", { useTz: true }).notNullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable("access_requests");
}
