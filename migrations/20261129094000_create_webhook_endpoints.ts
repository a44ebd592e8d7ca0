import type { Knex } from "knex";

/** Webhook endpoints (server/webhooks): where events are sent, signed with the endpoint's secret (kept encrypted). */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable("webhook_endpoints", (t) => {
    t.increments("id");
    t.string("url", 2000).notNullable();
    // The event types it receives, as a JSON array.
    t.text("events").notNullable();
    t.string("description", 500).nullable();
    t.boolean("active").notNullable().defaultTo(true);
    t.text("secret").notNullable();
    // Since when every attempt failed (ms since the epoch), or null.
    t.bigInteger("failing_since").nullable();
    t.timestamp("created_at", { useTz: true }).notNullable();
    t.timestamp("updated_at", { useTz: true }).notNullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable("webhook_endpoints");
}
