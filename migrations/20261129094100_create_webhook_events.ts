import type { Knex } from "knex";

/** The webhooks' outbox: one row per event, written in the transaction of the change that caused it. */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable("webhook_events", (t) => {
    t.increments("id");
    // The `webhook-id` every delivery of it carries, retries included.
    t.string("uid", 40).notNullable().unique();
    t.string("type", 50).notNullable();
    // What names the record (ids) and the facts of the moment, as JSON.
    t.text("subject").notNullable();
    // The body sent, fixed at the first attempt so every retry sends the same bytes.
    t.text("body").nullable();
    // Set for events that happen once per something (a visitor's first view of the day).
    t.string("dedupe_key", 200).nullable().unique();
    t.bigInteger("created_at").notNullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable("webhook_events");
}
