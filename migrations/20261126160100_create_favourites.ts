import type { Knex } from "knex";

/**
 * One visitor's favourite photo, with an optional one-line comment. Deleting the photo removes it
 * from every list; deleting the visitor (with the project) removes the list.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable("favourites", (t) => {
    t.integer("visitor_id").unsigned().notNullable().references("id").inTable("favourite_visitors").onDelete("CASCADE");
    t.integer("attachment_id").unsigned().notNullable().references("id").inTable("attachments").onDelete("CASCADE");
    t.string("comment", 200).nullable();
    t.timestamp("created_at", { useTz: true }).notNullable();
    t.primary(["visitor_id", "attachment_id"]);
    // Deleting a photo finds its favourites by index.
    t.index(["attachment_id"]);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable("favourites");
}
