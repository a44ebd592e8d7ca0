import type { Knex } from "knex";

/**
 * The photo staff chose for the top of the delivery page; null: the first photo. Deleting that
 * photo sets it back to null (the first photo again), so it never names a photo that is gone.
 * Plain SQL: both databases add a nullable column with a foreign key in place (knex would
 * rebuild the sqlite table, and its triggers with it).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(
    "ALTER TABLE projects ADD COLUMN cover_attachment_id INTEGER NULL REFERENCES attachments (id) ON DELETE SET NULL",
  );
  // Deleting a photo looks for projects naming it: by index, not by reading every project.
  await knex.raw("CREATE INDEX projects_cover_attachment_id_index ON projects (cover_attachment_id)");
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw("DROP INDEX projects_cover_attachment_id_index");
  await knex.schema.alterTable("projects", (t) => {
    t.dropColumn("cover_attachment_id");
  });
}
