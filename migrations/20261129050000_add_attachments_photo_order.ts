import type { Knex } from "knex";

/**
 * Photos in the order a project chooses (server/attachments/photo-order.ts): each photo keeps its
 * capture time read from EXIF, a natural-order key of its name and the capture order's key, and
 * whether its EXIF was read yet (photos stored before this release are read by a background job,
 * from a partial index). One index per order serves a project's list pages, as created_at's does.
 * The keys compare byte by byte: "C" collation on PostgreSQL, sqlite's default BINARY.
 * Plain SQL column adds: both databases add them in place (knex would rebuild the sqlite table and
 * its triggers).
 */
export async function up(knex: Knex): Promise<void> {
  const pg = knex.client.dialect === "postgresql";
  const collate = pg ? ' COLLATE "C"' : "";
  await knex.raw("ALTER TABLE attachments ADD COLUMN captured_at varchar(32) NULL");
  await knex.raw("ALTER TABLE attachments ADD COLUMN captured_at_checked boolean NOT NULL DEFAULT false");
  await knex.raw(`ALTER TABLE attachments ADD COLUMN name_key text${collate} NOT NULL DEFAULT ''`);
  await knex.raw(`ALTER TABLE attachments ADD COLUMN capture_key text${collate} NOT NULL DEFAULT ''`);
  await knex.raw("CREATE INDEX attachments_project_capture_key_index ON attachments (project_id, capture_key, id)");
  await knex.raw("CREATE INDEX attachments_project_name_key_index ON attachments (project_id, name_key, id)");
  await knex.raw(
    `CREATE INDEX attachments_capture_unchecked_index ON attachments (id) WHERE ${pg ? "NOT captured_at_checked" : "captured_at_checked = 0"}`,
  );
  await knex.raw("ALTER TABLE projects ADD COLUMN photo_order varchar(16) NOT NULL DEFAULT 'captured'");
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw("ALTER TABLE projects DROP COLUMN photo_order");
  for (const index of ["capture_unchecked", "project_name_key", "project_capture_key"]) {
    await knex.raw(`DROP INDEX attachments_${index}_index`);
  }
  for (const column of ["capture_key", "name_key", "captured_at_checked", "captured_at"]) {
    await knex.raw(`ALTER TABLE attachments DROP COLUMN ${column}`);
  }
}
