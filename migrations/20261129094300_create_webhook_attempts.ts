import type { Knex } from "knex";

/** Every attempt to send a delivery: what GET /api/webhooks/{id}/attempts lists. */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable("webhook_attempts", (t) => {
    t.increments("id");
    t.integer("delivery_id").notNullable().references("id").inTable("webhook_deliveries").onDelete("CASCADE").index();
    t.integer("endpoint_id").notNullable().references("id").inTable("webhook_endpoints").onDelete("CASCADE");
    t.string("event_type", 50).notNullable();
    t.timestamp("attempted_at", { useTz: true }).notNullable();
    // The receiver's HTTP status, or null when none came (refused address, timeout, connection error).
    t.integer("status").nullable();
    t.integer("duration_ms").notNullable();
    // The first 200 characters of the answer, or what went wrong.
    t.string("response", 300).nullable();
    t.index(["endpoint_id", "id"]);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable("webhook_attempts");
}
