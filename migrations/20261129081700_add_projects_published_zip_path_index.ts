import type { Knex } from "knex";

/**
 * A delivery link is found by its ZIP's path (server/delivery/delivery.repository.ts): every link
 * read the delivery cache does not hold, and an unknown or unpublished link's page read it twice
 * (published? being updated?). Indexed, each is one lookup instead of a scan of every project.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable("projects", (t) => {
    t.index(["published_zip_path"], "projects_published_zip_path_index");
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable("projects", (t) => {
    t.dropIndex(["published_zip_path"], "projects_published_zip_path_index");
  });
}
