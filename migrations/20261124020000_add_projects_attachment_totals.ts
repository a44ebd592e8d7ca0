import type { Knex } from "knex";

/**
 * Each project carries its attachments' count and total size, kept by triggers in the same
 * statement (so the same transaction) as every insert, delete or move of an attachment: list
 * pages read two columns instead of counting, and no code path can forget to update them.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable("projects", (t) => {
    t.integer("attachment_count").notNullable().defaultTo(0).index();
    t.bigInteger("total_file_size").notNullable().defaultTo(0).index();
  });
  await knex.raw(`UPDATE projects SET
    attachment_count = (SELECT count(*) FROM attachments a WHERE a.project_id = projects.id),
    total_file_size = (SELECT coalesce(sum(a.size), 0) FROM attachments a WHERE a.project_id = projects.id)`);
  const add = (row: "NEW" | "OLD", sign: "+" | "-") =>
    `UPDATE projects SET attachment_count = attachment_count ${sign} 1, total_file_size = total_file_size ${sign} ${row}.size WHERE id = ${row}.project_id;`;
  if (knex.client.dialect === "postgresql") {
    await knex.raw(`CREATE FUNCTION attachments_keep_project_totals() RETURNS trigger AS $$
      BEGIN
        IF TG_OP IN ('DELETE', 'UPDATE') THEN ${add("OLD", "-")} END IF;
        IF TG_OP IN ('INSERT', 'UPDATE') THEN ${add("NEW", "+")} END IF;
        RETURN NULL;
      END $$ LANGUAGE plpgsql`);
    await knex.raw(`CREATE TRIGGER attachments_project_totals AFTER INSERT OR DELETE OR UPDATE OF size, project_id
      ON attachments FOR EACH ROW EXECUTE FUNCTION attachments_keep_project_totals()`);
  } else {
    await knex.raw(`CREATE TRIGGER attachments_totals_insert AFTER INSERT ON attachments BEGIN ${add("NEW", "+")} END`);
    await knex.raw(`CREATE TRIGGER attachments_totals_delete AFTER DELETE ON attachments BEGIN ${add("OLD", "-")} END`);
    await knex.raw(`CREATE TRIGGER attachments_totals_update AFTER UPDATE OF size, project_id ON attachments
      BEGIN ${add("OLD", "-")} ${add("NEW", "+")} END`);
  }
}

export async function down(knex: Knex): Promise<void> {
  if (knex.client.dialect === "postgresql") {
    await knex.raw("DROP TRIGGER attachments_project_totals ON attachments");
    await knex.raw("DROP FUNCTION attachments_keep_project_totals()");
  } else {
    for (const name of ["insert", "delete", "update"]) await knex.raw(`DROP TRIGGER attachments_totals_${name}`);
  }
  await knex.schema.alterTable("projects", (t) => {
    t.dropIndex(["attachment_count"]);
    t.dropIndex(["total_file_size"]);
    t.dropColumn("attachment_count");
    t.dropColumn("total_file_size");
  });
}
