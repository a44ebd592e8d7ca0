import type { Knex } from "knex";

/** The longest suffix kept; a longer search is served by the trigram index (ListSpec.suffixIndex says the same). */
const KEPT = 32;

/** Each suffix of `lower(name)` of the rows of `rows` (aliased `r`, with id, name and created_at), once. */
const suffixesOf = (rows: string) =>
  `SELECT DISTINCT substr(lower(r.name), i, ${KEPT}) AS suffix, r.id AS project_id, r.created_at
   FROM ${rows} r, generate_series(1, length(lower(r.name))) i`;

/**
 * PostgreSQL: every suffix of each project's `lower(name)` (its first 32 characters), with the
 * project's id and creation time, in a B-tree. A name contains a text exactly when one of its
 * suffixes starts with it, so a search of projects is one range of that index, read without
 * touching a project's row, and already carries the order "newest first" sorts by.
 *
 * pg_trgm's index answered the same search by intersecting the trigrams' lists and then reading
 * every candidate's row to recheck the LIKE and to sort: 0.53 ms of the database's time for a
 * family name matching 500 of the bench's 100,000 projects, against 0.10 ms here (pgbench, one
 * connection, bench/README.md Scale). The price is space: about 2.8 kB a project (2.46 million
 * suffixes, 282 MB with the index, for the bench's 100,000 names of 25 characters), and writes: a
 * project's insert or rename writes its 20–40 suffixes.
 *
 * Kept by triggers in the same transaction as each write: inserts and deletes once per statement
 * (a bulk insert or delete of projects adds or removes all their suffixes in one statement), a
 * rename or a new creation time once per row. sqlite's trigram index (create_name_search_indexes)
 * reads no row to match either, and needs nothing of the kind.
 */
export async function up(knex: Knex): Promise<void> {
  if (knex.client.dialect !== "postgresql") return;
  await knex.raw(`CREATE TABLE project_name_suffixes (
    suffix text COLLATE "C" NOT NULL,
    project_id integer NOT NULL,
    created_at timestamptz NOT NULL
  )`);
  await knex.raw(`INSERT INTO project_name_suffixes ${suffixesOf("projects")}`);
  // Built after the rows (sorted once, its pages full) rather than grown row by row.
  await knex.raw("ALTER TABLE project_name_suffixes ADD PRIMARY KEY (suffix, project_id) INCLUDE (created_at)");
  const forget = (rows: string) =>
    `DELETE FROM project_name_suffixes s USING (${suffixesOf(rows)}) o
     WHERE s.suffix = o.suffix AND s.project_id = o.project_id;`;
  const keep = (rows: string) => `INSERT INTO project_name_suffixes ${suffixesOf(rows)};`;
  await knex.raw(`CREATE FUNCTION project_name_suffixes_added() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN ${keep("added")} RETURN NULL; END $$`);
  await knex.raw(`CREATE FUNCTION project_name_suffixes_removed() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN ${forget("removed")} RETURN NULL; END $$`);
  await knex.raw(`CREATE FUNCTION project_name_suffixes_changed() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN ${forget("(SELECT OLD.*)")} ${keep("(SELECT NEW.*)")} RETURN NULL; END $$`);
  await knex.raw(`CREATE TRIGGER project_name_suffixes_insert AFTER INSERT ON projects
    REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION project_name_suffixes_added()`);
  await knex.raw(`CREATE TRIGGER project_name_suffixes_delete AFTER DELETE ON projects
    REFERENCING OLD TABLE AS removed FOR EACH STATEMENT EXECUTE FUNCTION project_name_suffixes_removed()`);
  await knex.raw(`CREATE TRIGGER project_name_suffixes_update AFTER UPDATE OF name, created_at, id ON projects
    FOR EACH ROW WHEN (OLD.name IS DISTINCT FROM NEW.name OR OLD.created_at IS DISTINCT FROM NEW.created_at
      OR OLD.id IS DISTINCT FROM NEW.id)
    EXECUTE FUNCTION project_name_suffixes_changed()`);
}

export async function down(knex: Knex): Promise<void> {
  if (knex.client.dialect !== "postgresql") return;
  for (const event of ["insert", "delete", "update"])
    await knex.raw(`DROP TRIGGER project_name_suffixes_${event} ON projects`);
  for (const fn of ["added", "removed", "changed"]) await knex.raw(`DROP FUNCTION project_name_suffixes_${fn}()`);
  await knex.raw("DROP TABLE project_name_suffixes");
}
