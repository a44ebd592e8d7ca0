import type { Knex } from "knex";

/**
 * At every start the server asks which photos still lack a thumbnail (`thumbnail_key IS NULL`).
 * A partial index holds only those, so the answer costs what is waiting (usually nothing), not a
 * read of every attachment row.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw("CREATE INDEX attachments_without_thumbnail_index ON attachments (id) WHERE thumbnail_key IS NULL");
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw("DROP INDEX attachments_without_thumbnail_index");
}
