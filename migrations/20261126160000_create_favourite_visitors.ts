import type { Knex } from "knex";

/**
 * The people who chose favourites on a project's delivery page: a name and an e-mail they gave,
 * no account. The browser holds a random key in an HttpOnly cookie; only its SHA-256 is kept.
 * `zip_path` is the link the key was given on (a regenerated link starts afresh, the list stays
 * with the project). Deleted with the project.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable("favourite_visitors", (t) => {
    t.increments("id");
    t.integer("project_id").unsigned().notNullable().references("id").inTable("projects").onDelete("CASCADE");
    t.string("key_hash", 64).notNullable().unique();
    t.string("zip_path", 255).notNullable();
    t.string("name", 100).notNullable();
    t.string("email", 320).notNullable();
    t.timestamp("created_at", { useTz: true }).notNullable();
    // The last change to the list or its comments.
    t.timestamp("changed_at", { useTz: true }).notNullable();
    // The last time the visitor sent the list to the studio; null until then.
    t.timestamp("submitted_at", { useTz: true }).nullable();
    t.index(["project_id", "created_at", "id"]);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable("favourite_visitors");
}
