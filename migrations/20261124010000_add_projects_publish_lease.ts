import type { Knex } from "knex";

/**
 * A build's lease: until when the process building it vouches for it (renewed while it builds),
 * and the name of the ZIP it is writing, so another process can remove the partial file of a
 * build whose process died.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable("projects", (t) => {
    t.timestamp("publish_lease_expires_at", { useTz: true }).nullable();
    t.string("publish_file", 255).nullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable("projects", (t) => {
    t.dropColumn("publish_lease_expires_at");
    t.dropColumn("publish_file");
  });
}
