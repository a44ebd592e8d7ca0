import type { Knex } from "knex";

/**
 * What happened to a project's delivery, newest first on its page: mails sent, reminders, page
 * views (one row per day, counted), downloads, passcode failures (one row per day), a regenerated
 * link, the expiry. Kept with the project and deleted with it.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable("delivery_activity", (t) => {
    t.increments("id");
    t.integer("project_id").unsigned().notNullable().references("id").inTable("projects").onDelete("CASCADE");
    t.string("type", 32).notNullable();
    // Rows counted together (`views:2026-11-25`); null for rows of their own.
    t.string("group_key", 64).nullable();
    t.integer("count").notNullable().defaultTo(1);
    // The staff member who did it, as named then (the row outlives a deleted account).
    t.string("actor", 400).nullable();
    // Recipients, failures, a photo's name: JSON, read only by the activity repository.
    t.text("data").nullable();
    t.timestamp("created_at", { useTz: true }).notNullable();
    t.timestamp("occurred_at", { useTz: true }).notNullable();
    t.unique(["project_id", "group_key"]);
    t.index(["project_id", "occurred_at", "id"]);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable("delivery_activity");
}
