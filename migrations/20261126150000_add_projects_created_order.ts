import type { Knex } from "knex";

/** The list_totals row: 0 while every project's creation time follows its id's order, above 0 from the first that does not. */
const DISORDER = "projects.created_at_disorder";

/**
 * Projects are created in id order, so sorting them by creation time is, as long as no creation
 * time runs against that order, sorting them by id: a page of "newest first" or of a search then
 * reads its ids from the primary key (or the search index) in order instead of reading every
 * match's row to sort them (server/db/list-pages.ts, sortedById). The row counts what breaks the
 * rule, kept by triggers in the same transaction: a project inserted with a time out of order (an
 * import) or a creation time changed (never done by the app). While it is above 0 the lists sort
 * by the column as before.
 *
 * sqlite only: on PostgreSQL a search reads every match's row anyway (a bitmap heap scan), so the
 * shortcut would save nothing there.
 */
export async function up(knex: Knex): Promise<void> {
  if (knex.client.dialect === "postgresql") return;
  await knex.raw(
    `INSERT INTO list_totals (name, total)
     SELECT ?, count(*) FROM (SELECT created_at < lag(created_at) OVER (ORDER BY id) AS early FROM projects) WHERE early`,
    [DISORDER],
  );
  const count = `UPDATE list_totals SET total = total + 1 WHERE name = '${DISORDER}';`;
  // Each test reads one index from the new row's place (the unary + keeps sqlite from choosing the
  // other, which would walk every project on every insert); once out of order, nothing is tested.
  await knex.raw(`CREATE TRIGGER projects_created_order_insert AFTER INSERT ON projects
    WHEN (SELECT total FROM list_totals WHERE name = '${DISORDER}') = 0
      AND (EXISTS (SELECT 1 FROM projects WHERE created_at > NEW.created_at AND +id < NEW.id)
        OR EXISTS (SELECT 1 FROM projects WHERE id > NEW.id AND +created_at < NEW.created_at))
    BEGIN ${count} END`);
  await knex.raw(`CREATE TRIGGER projects_created_order_update AFTER UPDATE OF created_at, id ON projects
    WHEN OLD.created_at IS NOT NEW.created_at OR OLD.id IS NOT NEW.id
    BEGIN ${count} END`);
}

export async function down(knex: Knex): Promise<void> {
  if (knex.client.dialect === "postgresql") return;
  await knex.raw("DROP TRIGGER projects_created_order_insert");
  await knex.raw("DROP TRIGGER projects_created_order_update");
  await knex("list_totals").where({ name: DISORDER }).delete();
}
