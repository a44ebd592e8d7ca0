import type { Knex } from "knex";

/**
 * What a delivery page lets its client download: `delivery_allow_downloads` off makes it a
 * view-only proofing gallery (no ZIP, no photo downloads); `delivery_offer_web_size` adds the
 * previews beside the originals, one by one and as a ZIP built at publish. The defaults keep
 * every existing project as it was: downloads on, web size off.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable("projects", (t) => {
    t.boolean("delivery_allow_downloads").notNullable().defaultTo(true);
    t.boolean("delivery_offer_web_size").notNullable().defaultTo(false);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable("projects", (t) => {
    t.dropColumn("delivery_allow_downloads");
    t.dropColumn("delivery_offer_web_size");
  });
}
