import type { Knex } from "knex";

/**
 * At every start the server asks which photos still lack a preview (`preview_key IS NULL`): on
 * the first start after the column came, every photo; afterwards, only those a stopped process
 * had not rendered. A partial index holds only those, so the answer costs what is waiting.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw("CREATE INDEX attachments_without_preview_index ON attachments (id) WHERE preview_key IS NULL");
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw("DROP INDEX attachments_without_preview_index");
}
