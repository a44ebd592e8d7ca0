import type { Knex } from "knex";

/** Child tables whose rows each client counts, and the column on the client that holds the count. */
const COUNTED = [
  { table: "projects", column: "project_count" },
  { table: "contacts", column: "contact_count" },
];

/**
 * Each client carries how many projects and contacts it has, kept by triggers in the same
 * statement as every insert, delete or move to another client (as attachment_count is on
 * projects): the clients list reads two indexed columns instead of counting per row, and can sort
 * by them without counting every client's projects.
 */
export async function up(knex: Knex): Promise<void> {
  const pg = knex.client.dialect === "postgresql";
  await knex.schema.alterTable("clients", (t) => {
    for (const { column } of COUNTED) t.integer(column).notNullable().defaultTo(0);
  });
  for (const { table, column } of COUNTED) {
    await knex.raw(`UPDATE clients SET ${column} = (SELECT count(*) FROM ${table} x WHERE x.client_id = clients.id)`);
    await knex.schema.alterTable("clients", (t) => {
      // PostgreSQL's sort indexes end in the id, the tie-break of every sort (sqlite's end in the rowid).
      t.index(pg ? [column, "id"] : [column]);
    });
    const change = (row: "NEW" | "OLD", sign: "+" | "-") =>
      `UPDATE clients SET ${column} = ${column} ${sign} 1 WHERE id = ${row}.client_id;`;
    if (pg) {
      // Per statement for inserts and deletes (a bulk delete updates each client once), per row
      // for the rare move between clients.
      const bulk = (name: string, rows: string, sign: "+" | "-") => `
        CREATE FUNCTION ${name}() RETURNS trigger AS $$ BEGIN
          UPDATE clients c SET ${column} = c.${column} ${sign} d.n
            FROM (SELECT client_id, count(*) AS n FROM ${rows} WHERE client_id IS NOT NULL GROUP BY client_id) d
            WHERE c.id = d.client_id;
          RETURN NULL;
        END $$ LANGUAGE plpgsql`;
      await knex.raw(bulk(`${table}_count_added`, "added", "+"));
      await knex.raw(bulk(`${table}_count_removed`, "removed", "-"));
      await knex.raw(`CREATE FUNCTION ${table}_count_moved() RETURNS trigger AS $$ BEGIN
          ${change("OLD", "-")} ${change("NEW", "+")} RETURN NULL;
        END $$ LANGUAGE plpgsql`);
      await knex.raw(`CREATE TRIGGER ${table}_count_added AFTER INSERT ON ${table}
        REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION ${table}_count_added()`);
      await knex.raw(`CREATE TRIGGER ${table}_count_removed AFTER DELETE ON ${table}
        REFERENCING OLD TABLE AS removed FOR EACH STATEMENT EXECUTE FUNCTION ${table}_count_removed()`);
      await knex.raw(`CREATE TRIGGER ${table}_count_moved AFTER UPDATE OF client_id ON ${table} FOR EACH ROW
        WHEN (OLD.client_id IS DISTINCT FROM NEW.client_id) EXECUTE FUNCTION ${table}_count_moved()`);
    } else {
      // A deleted client's projects are detached by its foreign key (ON DELETE SET NULL), an
      // update that fires the move trigger; the client's own row is gone by then.
      await knex.raw(`CREATE TRIGGER ${table}_count_insert AFTER INSERT ON ${table} BEGIN ${change("NEW", "+")} END`);
      await knex.raw(`CREATE TRIGGER ${table}_count_delete AFTER DELETE ON ${table} BEGIN ${change("OLD", "-")} END`);
      await knex.raw(`CREATE TRIGGER ${table}_count_update AFTER UPDATE OF client_id ON ${table}
        WHEN OLD.client_id IS NOT NEW.client_id BEGIN ${change("OLD", "-")} ${change("NEW", "+")} END`);
    }
  }
}

export async function down(knex: Knex): Promise<void> {
  const pg = knex.client.dialect === "postgresql";
  for (const { table, column } of COUNTED) {
    if (pg) {
      for (const name of ["added", "removed", "moved"]) {
        await knex.raw(`DROP TRIGGER ${table}_count_${name} ON ${table}`);
        await knex.raw(`DROP FUNCTION ${table}_count_${name}()`);
      }
    } else {
      for (const name of ["insert", "delete", "update"]) await knex.raw(`DROP TRIGGER ${table}_count_${name}`);
    }
    await knex.schema.alterTable("clients", (t) => {
      t.dropIndex(pg ? [column, "id"] : [column]);
      t.dropColumn(column);
    });
  }
}
