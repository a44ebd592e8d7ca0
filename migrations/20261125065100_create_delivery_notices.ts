import type { Knex } from "knex";

/**
 * Staff mails that go out once per project and occasion (`first-download:<publishedAt>`,
 * `expired:<expiresAt>`): whichever process inserts the row sends the mail, so several processes
 * send it once.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable("delivery_notices", (t) => {
    t.integer("project_id").unsigned().notNullable().references("id").inTable("projects").onDelete("CASCADE");
    t.string("notice_key", 80).notNullable();
    t.timestamp("created_at", { useTz: true }).notNullable();
    t.primary(["project_id", "notice_key"]);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable("delivery_notices");
}
