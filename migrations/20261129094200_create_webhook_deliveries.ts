import type { Knex } from "knex";

/** One delivery per (event, endpoint): what the outbox worker claims, sends and retries. */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable("webhook_deliveries", (t) => {
    t.increments("id");
    t.integer("event_id").notNullable().references("id").inTable("webhook_events").onDelete("CASCADE");
    t.integer("endpoint_id").notNullable().references("id").inTable("webhook_endpoints").onDelete("CASCADE");
    // pending, delivered or failed.
    t.string("status", 10).notNullable();
    t.integer("attempts").notNullable().defaultTo(0);
    // Times in ms since the epoch: compared alike on every database.
    t.bigInteger("next_attempt_at").notNullable();
    t.string("lease_token", 40).nullable();
    t.bigInteger("lease_until").nullable();
    t.unique(["event_id", "endpoint_id"]);
    t.index(["status", "next_attempt_at"]);
    t.index(["endpoint_id"]);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable("webhook_deliveries");
}
