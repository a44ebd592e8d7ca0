import type { Knex } from "knex";

/** Sortable project columns whose single-column index a list page walks. */
const SORTED = ["name", "created_at", "updated_at", "attachment_count", "total_file_size"];

/**
 * On PostgreSQL the indexes on projects' sortable columns end in the id, the tie-break of every
 * sort, so a deep page (OFFSET 9000) is read from the index alone instead of fetching and sorting
 * every row it skips. A sqlite index already ends in the rowid: nothing to change there.
 */
export async function up(knex: Knex): Promise<void> {
  if (knex.client.dialect !== "postgresql") return;
  for (const column of SORTED) {
    await knex.schema.alterTable("projects", (t) => {
      t.dropIndex([column]);
      t.index([column, "id"]);
    });
  }
}

export async function down(knex: Knex): Promise<void> {
  if (knex.client.dialect !== "postgresql") return;
  for (const column of SORTED) {
    await knex.schema.alterTable("projects", (t) => {
      t.dropIndex([column, "id"]);
      t.index([column]);
    });
  }
}
