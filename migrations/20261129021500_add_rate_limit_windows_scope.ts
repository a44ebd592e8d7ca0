import type { Knex } from "knex";

/**
 * The hash of what a window belongs to (an account's sign-in budgets), so a successful password
 * reset can end all of that account's windows at once, per-address ones included.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable("rate_limit_windows", (t) => {
    t.string("scope_hash", 64).nullable().index();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable("rate_limit_windows", (t) => {
    t.dropIndex(["scope_hash"]);
    t.dropColumn("scope_hash");
  });
}
