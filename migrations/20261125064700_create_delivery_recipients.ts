import type { Knex } from "knex";

/**
 * Every address a project's link was mailed to: its own key in the link (so a download can be
 * told apart per recipient), the link it was sent (a regenerated link is not reminded), who sent
 * it, and the reminder's state: claimed by a process until a time, then sent.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable("delivery_recipients", (t) => {
    t.increments("id");
    t.integer("project_id").unsigned().notNullable().references("id").inTable("projects").onDelete("CASCADE").index();
    t.string("email", 320).notNullable();
    t.string("name", 200).nullable();
    t.string("link_key", 64).notNullable().unique();
    t.string("zip_path", 255).notNullable();
    // The origin its links used, so a reminder (sent with no request to take one from) links the same way.
    t.string("link_origin", 2048).notNullable();
    t.string("sent_by", 40).nullable().references("uid").inTable("users").onDelete("SET NULL").index();
    t.timestamp("sent_at", { useTz: true }).notNullable();
    t.timestamp("downloaded_at", { useTz: true }).nullable();
    t.timestamp("reminder_claimed_until", { useTz: true }).nullable();
    t.timestamp("reminded_at", { useTz: true }).nullable().index();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable("delivery_recipients");
}
