import type { Knex } from "knex";

/**
 * The size of a published project's ZIP, recorded when the build is recorded, so the dashboard
 * adds up what published ZIPs take without reading the folder. Projects published before this
 * column existed get theirs from the file at the next start (the folder is a setting the
 * migration cannot see): see fillPublishedZipSizes.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable("projects", (t) => {
    t.bigInteger("published_zip_size").nullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable("projects", (t) => {
    t.dropColumn("published_zip_size");
  });
}
