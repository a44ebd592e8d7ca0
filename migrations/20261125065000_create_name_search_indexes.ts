import type { Knex } from "knex";

/** The columns `q` searches, and the sqlite full-text table that indexes each. */
const SEARCHED = [
  { table: "projects", column: "name", index: "projects_search" },
  { table: "clients", column: "name", index: "clients_search" },
  { table: "attachments", column: "original_name", index: "attachments_search" },
];

/**
 * Substring search served by an index instead of reading every name. A search matches a name when
 * `lower(name)` contains the lower-cased text, as it did before (sqlite's lower() folds ASCII
 * letters only; accents are kept as they are).
 *
 * - sqlite: an FTS5 trigram table of `lower(name)` per table, case-sensitive (the text is already
 *   lower-cased as the search was), contentless (it keeps only the index), kept by triggers. A
 *   phrase of trigrams matches exactly where the text contains the phrase, so what it finds is
 *   exactly what `lower(name) LIKE '%text%'` found, for any text of three characters or more.
 * - PostgreSQL: pg_trgm's GIN index on `lower(name)`, which serves that same LIKE (the database
 *   checks every candidate against the LIKE, so the match is the LIKE's own).
 */
export async function up(knex: Knex): Promise<void> {
  if (knex.client.dialect === "postgresql") {
    await knex.raw("CREATE EXTENSION IF NOT EXISTS pg_trgm");
    for (const { table, column, index } of SEARCHED) {
      await knex.raw(`CREATE INDEX ${index} ON ${table} USING gin (lower(${column}) gin_trgm_ops)`);
    }
    return;
  }
  for (const { table, column, index } of SEARCHED) {
    await knex.raw(`CREATE VIRTUAL TABLE ${index} USING fts5(${column}, content='', contentless_delete=1,
      tokenize="trigram case_sensitive 1")`);
    await knex.raw(`INSERT INTO ${index} (rowid, ${column}) SELECT id, lower(${column}) FROM ${table}`);
    const add = `INSERT INTO ${index} (rowid, ${column}) VALUES (NEW.id, lower(NEW.${column}));`;
    const remove = `DELETE FROM ${index} WHERE rowid = OLD.id;`;
    await knex.raw(`CREATE TRIGGER ${index}_insert AFTER INSERT ON ${table} BEGIN ${add} END`);
    await knex.raw(`CREATE TRIGGER ${index}_delete AFTER DELETE ON ${table} BEGIN ${remove} END`);
    await knex.raw(`CREATE TRIGGER ${index}_update AFTER UPDATE OF ${column} ON ${table}
      WHEN OLD.${column} IS NOT NEW.${column} BEGIN ${remove} ${add} END`);
  }
}

export async function down(knex: Knex): Promise<void> {
  if (knex.client.dialect === "postgresql") {
    for (const { index } of SEARCHED) await knex.raw(`DROP INDEX ${index}`);
    await knex.raw("DROP EXTENSION IF EXISTS pg_trgm");
    return;
  }
  for (const { index } of SEARCHED) {
    for (const event of ["insert", "delete", "update"]) await knex.raw(`DROP TRIGGER ${index}_${event}`);
    await knex.raw(`DROP TABLE ${index}`);
  }
}
