import type { Knex } from "knex";

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable("attachments", (t) => {
    t.increments("id");
    t.integer("project_id").unsigned().notNullable().references("id").inTable("projects").onDelete("CASCADE");
    // The uploaded name lives only here; files on disk carry generated names.
    t.string("original_name", 1024).notNullable();
    t.string("storage_key", 255).notNullable().unique();
    t.string("thumbnail_key", 255).nullable();
    t.string("mime_type", 64).notNullable();
    t.bigInteger("size").notNullable();
    t.integer("width").nullable();
    t.integer("height").nullable();
    t.string("checksum", 64).notNullable();
    t.timestamp("created_at", { useTz: true }).notNullable().index();
    t.timestamp("updated_at", { useTz: true }).notNullable();
    t.index(["project_id", "created_at"]);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable("attachments");
}
