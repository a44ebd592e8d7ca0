import type { Knex } from "knex";

// Without it, a user an admin revoked and one who signed up and never asked look the same
// (no access, no request); the users list tells them apart ('Revoked' / 'Not requested').
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable("users", (t) => {
    t.timestamp("access_revoked_at", { useTz: true }).nullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable("users", (t) => {
    t.dropColumn("access_revoked_at");
  });
}
