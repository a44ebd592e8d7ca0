import type { Knex } from "knex";

/** A project's first photo in the ZIP's order, read from the attachments index. */
const FIRST_OF = (project: string) =>
  `(SELECT a.id, a.created_at FROM attachments a WHERE a.project_id = ${project} ORDER BY a.created_at, a.id LIMIT 1)`;
const SET_FIRST = (project: string) => `(first_attachment_id, first_attachment_at) = ${FIRST_OF(project)}`;
/** Whether photo `row` comes before the kept first one of project `p` (or it has none). */
const BEFORE_FIRST = (row: string, p = "projects") =>
  `(${p}.first_attachment_id IS NULL OR (${row}.created_at, ${row}.id) < (${p}.first_attachment_at, ${p}.first_attachment_id))`;

/**
 * Each project keeps its first photo in the ZIP's order (created_at, then id), the cover when
 * staff chose none, kept by triggers in the same statement as every insert, delete or move of a
 * photo, as the attachment count is. A list page read it with a subquery per project: about
 * 150 µs of a page of 25 on the bench's 1,000,000 photos, most of it index pages read from the OS cache.
 *
 * On PostgreSQL a photo added compares itself with the row's kept first (its time is kept beside
 * it), so two uploads at once cannot undo each other: the second update re-reads the row the
 * first committed. Deleting or moving the first photo locks the projects first and only then
 * reads their new first photo, in a statement begun after any upload holding them committed
 * (an UPDATE that waits for a row re-reads that row, not the photos its subquery reads). A delete
 * also waits on list_totals' row before this trigger runs (its trigger's name sorts first); a move
 * or re-date touches no total, so there the lock is what makes it see the upload.
 */
export async function up(knex: Knex): Promise<void> {
  const pg = knex.client.dialect === "postgresql";
  // Plain SQL: both databases add nullable columns in place (knex would rebuild the sqlite table
  // and its triggers with it). The time has attachments.created_at's type, so both compare alike.
  await knex.raw("ALTER TABLE projects ADD COLUMN first_attachment_id INTEGER NULL");
  await knex.raw(`ALTER TABLE projects ADD COLUMN first_attachment_at ${pg ? "timestamptz" : "datetime"} NULL`);
  await knex.raw(`UPDATE projects SET ${SET_FIRST("projects.id")}`);
  if (pg) await pgTriggers(knex);
  else await sqliteTriggers(knex);
}

async function sqliteTriggers(knex: Knex): Promise<void> {
  await knex.raw(`CREATE TRIGGER attachments_first_insert AFTER INSERT ON attachments BEGIN
    UPDATE projects SET first_attachment_id = NEW.id, first_attachment_at = NEW.created_at
      WHERE id = NEW.project_id AND ${BEFORE_FIRST("NEW")};
  END`);
  await knex.raw(`CREATE TRIGGER attachments_first_delete AFTER DELETE ON attachments BEGIN
    UPDATE projects SET ${SET_FIRST("projects.id")} WHERE id = OLD.project_id AND first_attachment_id = OLD.id;
  END`);
  await knex.raw(`CREATE TRIGGER attachments_first_update AFTER UPDATE OF project_id, created_at ON attachments BEGIN
    UPDATE projects SET ${SET_FIRST("projects.id")} WHERE id IN (OLD.project_id, NEW.project_id);
  END`);
}

async function pgTriggers(knex: Knex): Promise<void> {
  // Per statement, as the counts: deleting 10,000 photos reads each project's new first photo once.
  await knex.raw(`CREATE FUNCTION attachments_project_first_added() RETURNS trigger AS $$ BEGIN
      UPDATE projects p SET first_attachment_id = d.id, first_attachment_at = d.created_at
        FROM (SELECT DISTINCT ON (project_id) project_id, id, created_at FROM added ORDER BY project_id, created_at, id) d
        WHERE p.id = d.project_id AND ${BEFORE_FIRST("d", "p")};
      RETURN NULL;
    END $$ LANGUAGE plpgsql`);
  await knex.raw(`CREATE TRIGGER attachments_project_first_added AFTER INSERT ON attachments
    REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION attachments_project_first_added()`);
  await knex.raw(`CREATE FUNCTION attachments_project_first_removed() RETURNS trigger AS $$ BEGIN
      PERFORM 1 FROM projects p WHERE p.id IN (SELECT project_id FROM removed)
        AND p.first_attachment_id IN (SELECT id FROM removed) ORDER BY p.id FOR UPDATE;
      UPDATE projects p SET ${SET_FIRST("p.id")} WHERE p.id IN (SELECT project_id FROM removed)
        AND p.first_attachment_id IN (SELECT id FROM removed);
      RETURN NULL;
    END $$ LANGUAGE plpgsql`);
  await knex.raw(`CREATE TRIGGER attachments_project_first_removed AFTER DELETE ON attachments
    REFERENCING OLD TABLE AS removed FOR EACH STATEMENT EXECUTE FUNCTION attachments_project_first_removed()`);
  await knex.raw(`CREATE FUNCTION attachments_project_first_moved() RETURNS trigger AS $$ BEGIN
      PERFORM 1 FROM projects p WHERE p.id IN (OLD.project_id, NEW.project_id) ORDER BY p.id FOR UPDATE;
      UPDATE projects p SET ${SET_FIRST("p.id")} WHERE p.id IN (OLD.project_id, NEW.project_id);
      RETURN NULL;
    END $$ LANGUAGE plpgsql`);
  await knex.raw(`CREATE TRIGGER attachments_project_first_moved AFTER UPDATE OF project_id, created_at ON attachments
    FOR EACH ROW EXECUTE FUNCTION attachments_project_first_moved()`);
}

export async function down(knex: Knex): Promise<void> {
  if (knex.client.dialect === "postgresql") {
    for (const name of ["added", "removed", "moved"]) {
      await knex.raw(`DROP TRIGGER attachments_project_first_${name} ON attachments`);
      await knex.raw(`DROP FUNCTION attachments_project_first_${name}()`);
    }
  } else {
    for (const name of ["insert", "delete", "update"]) await knex.raw(`DROP TRIGGER attachments_first_${name}`);
  }
  await knex.raw("ALTER TABLE projects DROP COLUMN first_attachment_id");
  await knex.raw("ALTER TABLE projects DROP COLUMN first_attachment_at");
}
