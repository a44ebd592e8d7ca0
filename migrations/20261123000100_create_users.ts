import type { Knex } from "knex";

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable("users", (t) => {
    t.string("uid", 40).primary();
    t.string("email", 320).notNullable().unique();
    t.string("password_hash", 255).nullable();
    t.string("display_name", 200).nullable();
    t.string("phone_number", 50).nullable();
    t.string("photo_url", 2048).nullable();
    t.boolean("email_verified").notNullable().defaultTo(false);
    t.string("role", 16).notNullable().defaultTo("staff");
    t.boolean("has_access").notNullable().defaultTo(false);
    t.string("google_sub", 255).nullable().unique();
    t.timestamp("created_at", { useTz: true }).notNullable().index();
    t.timestamp("updated_at", { useTz: true }).notNullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable("users");
}
