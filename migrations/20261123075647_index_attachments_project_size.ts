import type { Knex } from "knex";

/**
 * Project lists show each project's total file size and can sort by it; with size in the index
 * the per-project sum reads only the index instead of every attachment row.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable("attachments", (t) => {
    t.index(["project_id", "size"], "attachments_project_id_size_index");
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable("attachments", (t) => {
    t.dropIndex(["project_id", "size"], "attachments_project_id_size_index");
  });
}
