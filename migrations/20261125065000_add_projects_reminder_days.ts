import type { Knex } from "knex";

/** Remind recipients this many days before the delivery link expires; null: no reminders. */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable("projects", (t) => {
    t.integer("delivery_reminder_days").nullable().defaultTo(3);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable("projects", (t) => {
    t.dropColumn("delivery_reminder_days");
  });
}
