import type { Knex } from "knex";

const grouped = (rows: string, sign: "+" | "-") => `
  UPDATE projects p SET attachment_count = p.attachment_count ${sign} d.n, total_file_size = p.total_file_size ${sign} d.bytes
    FROM (SELECT project_id, count(*) AS n, sum(size) AS bytes FROM ${rows} GROUP BY project_id) d
    WHERE p.id = d.project_id;`;

/**
 * On PostgreSQL, a project's attachment count and total size follow inserts and deletes per
 * statement instead of per row: deleting 10,000 photos updates their project once instead of
 * 10,000 times. Moves and size changes stay per row (the existing function). sqlite's per-row
 * triggers cost little and stay.
 */
export async function up(knex: Knex): Promise<void> {
  if (knex.client.dialect !== "postgresql") return;
  await knex.raw("DROP TRIGGER attachments_project_totals ON attachments");
  await knex.raw(`CREATE TRIGGER attachments_project_totals AFTER UPDATE OF size, project_id ON attachments
    FOR EACH ROW EXECUTE FUNCTION attachments_keep_project_totals()`);
  for (const [event, rows, sign] of [
    ["INSERT", "added", "+"],
    ["DELETE", "removed", "-"],
  ] as const) {
    await knex.raw(`CREATE FUNCTION attachments_project_totals_${rows}() RETURNS trigger AS $$ BEGIN
        ${grouped(rows, sign)} RETURN NULL;
      END $$ LANGUAGE plpgsql`);
    await knex.raw(`CREATE TRIGGER attachments_project_totals_${rows} AFTER ${event} ON attachments
      REFERENCING ${event === "INSERT" ? "NEW" : "OLD"} TABLE AS ${rows} FOR EACH STATEMENT
      EXECUTE FUNCTION attachments_project_totals_${rows}()`);
  }
}

export async function down(knex: Knex): Promise<void> {
  if (knex.client.dialect !== "postgresql") return;
  for (const rows of ["added", "removed"]) {
    await knex.raw(`DROP TRIGGER attachments_project_totals_${rows} ON attachments`);
    await knex.raw(`DROP FUNCTION attachments_project_totals_${rows}()`);
  }
  await knex.raw("DROP TRIGGER attachments_project_totals ON attachments");
  await knex.raw(`CREATE TRIGGER attachments_project_totals AFTER INSERT OR DELETE OR UPDATE OF size, project_id
    ON attachments FOR EACH ROW EXECUTE FUNCTION attachments_keep_project_totals()`);
}
