import type { Knex } from "knex";

/** A staff member's own choice about delivery mails (downloads, links expiring unused); no row means on. */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable("staff_notification_settings", (t) => {
    t.string("user_uid", 40).primary().references("uid").inTable("users").onDelete("CASCADE");
    t.boolean("delivery_mail").notNullable();
    t.timestamp("updated_at", { useTz: true }).notNullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable("staff_notification_settings");
}
