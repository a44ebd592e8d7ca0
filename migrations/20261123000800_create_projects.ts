import type { Knex } from "knex";

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable("projects", (t) => {
    t.increments("id");
    t.string("name", 200).notNullable().index();
    t.text("description").nullable();
    // Deleting a client keeps its projects; they become "No client".
    t.integer("client_id").unsigned().nullable().references("id").inTable("clients").onDelete("SET NULL").index();
    t.string("publish_status", 16).notNullable().defaultTo("draft").index();
    t.timestamp("published_at", { useTz: true }).nullable().index();
    t.string("published_zip_path", 255).nullable();
    t.text("publish_error").nullable();
    t.timestamp("created_at", { useTz: true }).notNullable().index();
    t.timestamp("updated_at", { useTz: true }).notNullable().index();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable("projects");
}
