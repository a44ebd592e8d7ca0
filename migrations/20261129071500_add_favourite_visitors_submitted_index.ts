import type { Knex } from "knex";

/**
 * The bell's selections (server/notifications/selection-notices.ts): the latest sent lists, read
 * again by every signed-in staff member whenever any list changes. A partial index of the sent ones
 * in send order answers the first 20 without scanning and sorting every visitor.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(
    "CREATE INDEX favourite_visitors_submitted_index ON favourite_visitors (submitted_at, id) WHERE submitted_at IS NOT NULL",
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw("DROP INDEX favourite_visitors_submitted_index");
}
