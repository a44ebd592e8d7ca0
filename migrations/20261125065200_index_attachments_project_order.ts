import type { Knex } from "knex";

/**
 * A project's photos in upload order (id ascending: the first 100 on the project's record) and,
 * on PostgreSQL, in the photo list's default order (created_at, then id), each from one index
 * walk with the id as the tie-break; sqlite's (project_id, created_at) index already ends in the
 * rowid.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable("attachments", (t) => {
    t.index(["project_id", "id"]);
  });
  if (knex.client.dialect !== "postgresql") return;
  await knex.schema.alterTable("attachments", (t) => {
    t.dropIndex(["project_id", "created_at"]);
    t.index(["project_id", "created_at", "id"]);
  });
}

export async function down(knex: Knex): Promise<void> {
  if (knex.client.dialect === "postgresql") {
    await knex.schema.alterTable("attachments", (t) => {
      t.dropIndex(["project_id", "created_at", "id"]);
      t.index(["project_id", "created_at"]);
    });
  }
  await knex.schema.alterTable("attachments", (t) => {
    t.dropIndex(["project_id", "id"]);
  });
}
