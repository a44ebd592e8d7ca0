import type { Knex } from "knex";

/**
 * A published project's delivery page: its link settings (expiry, a passcode's scrypt hash) and
 * what its client did (page views, full ZIP downloads, the last one's time).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable("projects", (t) => {
    t.string("delivery_expires_at", 32).nullable();
    t.string("delivery_passcode_hash", 255).nullable();
    t.integer("delivery_views").notNullable().defaultTo(0);
    t.integer("delivery_downloads").notNullable().defaultTo(0);
    t.string("delivery_last_download_at", 32).nullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable("projects", (t) => {
    t.dropColumn("delivery_expires_at");
    t.dropColumn("delivery_passcode_hash");
    t.dropColumn("delivery_views");
    t.dropColumn("delivery_downloads");
    t.dropColumn("delivery_last_download_at");
  });
}
