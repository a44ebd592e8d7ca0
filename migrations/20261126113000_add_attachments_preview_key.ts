import type { Knex } from "knex";

/** Each photo's screen-sized preview, rendered after upload; null until it is. */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable("attachments", (t) => {
    t.string("preview_key", 255).nullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable("attachments", (t) => {
    t.dropColumn("preview_key");
  });
}
