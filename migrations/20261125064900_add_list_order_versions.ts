import type { Knex } from "knex";

/** The columns lists sort or filter by (the id never changes), per table. */
const ORDERED: Record<string, string[]> = {
  clients: ["name", "created_at", "updated_at", "project_count", "contact_count"],
  contacts: ["client_id", "name", "email", "created_at", "updated_at"],
  projects: [
    "name",
    "created_at",
    "updated_at",
    "published_at",
    "attachment_count",
    "total_file_size",
    "client_id",
    "publish_status",
  ],
  attachments: ["project_id", "original_name", "size", "mime_type", "created_at", "updated_at"],
};

/**
 * A version per sorted or filtered column, in list_totals (`<table>.<column>`), that goes up
 * whenever a statement changes that column: with the table's own version (rows added or removed)
 * it tells a process whether the places it keeps in a sorted list are still right. Changes of
 * other columns (a thumbnail recorded, a delivery page viewed) leave every version as it was.
 */
export async function up(knex: Knex): Promise<void> {
  const pg = knex.client.dialect === "postgresql";
  if (pg) {
    await knex.raw(`CREATE FUNCTION list_order_changed() RETURNS trigger AS $$ BEGIN
        UPDATE list_totals SET version = version + 1 WHERE name = TG_ARGV[0];
        RETURN NULL;
      END $$ LANGUAGE plpgsql`);
  }
  for (const [table, columns] of Object.entries(ORDERED)) {
    for (const column of columns) {
      const name = `${table}.${column}`;
      await knex.raw("INSERT INTO list_totals (name) VALUES (?) ON CONFLICT (name) DO NOTHING", [name]);
      const trigger = `${table}_list_order_${column}`;
      if (pg) {
        // Per statement: one bump however many rows the statement changed.
        await knex.raw(`CREATE TRIGGER ${trigger} AFTER UPDATE OF ${column} ON ${table}
          FOR EACH STATEMENT EXECUTE FUNCTION list_order_changed('${name}')`);
      } else {
        await knex.raw(`CREATE TRIGGER ${trigger} AFTER UPDATE OF ${column} ON ${table}
          WHEN OLD.${column} IS NOT NEW.${column}
          BEGIN UPDATE list_totals SET version = version + 1 WHERE name = '${name}'; END`);
      }
    }
  }
}

export async function down(knex: Knex): Promise<void> {
  const pg = knex.client.dialect === "postgresql";
  for (const [table, columns] of Object.entries(ORDERED)) {
    for (const column of columns) {
      await knex.raw(
        pg ? `DROP TRIGGER ${table}_list_order_${column} ON ${table}` : `DROP TRIGGER ${table}_list_order_${column}`,
      );
    }
  }
  if (pg) await knex.raw("DROP FUNCTION list_order_changed()");
  // attachments.size also holds the photos' bytes (create_list_totals): it stays.
  const names = Object.entries(ORDERED).flatMap(([table, columns]) => columns.map((c) => `${table}.${c}`));
  await knex("list_totals").whereIn("name", names).whereNot("name", "attachments.size").delete();
}
