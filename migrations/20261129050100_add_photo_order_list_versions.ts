import type { Knex } from "knex";

/** The photo orders' key columns (migration add_attachments_photo_order). */
const COLUMNS = ["capture_key", "name_key"];

/**
 * A list_totals version per photo-order key column, bumped by any statement changing it, as
 * migration add_list_order_versions does for the other sorted columns: a deep page of a project's
 * photos in capture or name order then starts from a kept mark instead of an OFFSET walk.
 */
export async function up(knex: Knex): Promise<void> {
  const pg = knex.client.dialect === "postgresql";
  for (const column of COLUMNS) {
    const name = `attachments.${column}`;
    await knex.raw("INSERT INTO list_totals (name) VALUES (?) ON CONFLICT (name) DO NOTHING", [name]);
    const trigger = `attachments_list_order_${column}`;
    if (pg) {
      await knex.raw(`CREATE TRIGGER ${trigger} AFTER UPDATE OF ${column} ON attachments
        FOR EACH STATEMENT EXECUTE FUNCTION list_order_changed('${name}')`);
    } else {
      await knex.raw(`CREATE TRIGGER ${trigger} AFTER UPDATE OF ${column} ON attachments
        WHEN OLD.${column} IS NOT NEW.${column}
        BEGIN UPDATE list_totals SET version = version + 1 WHERE name = '${name}'; END`);
    }
  }
}

export async function down(knex: Knex): Promise<void> {
  const pg = knex.client.dialect === "postgresql";
  for (const column of COLUMNS) {
    const trigger = `attachments_list_order_${column}`;
    await knex.raw(pg ? `DROP TRIGGER ${trigger} ON attachments` : `DROP TRIGGER ${trigger}`);
    await knex.raw("DELETE FROM list_totals WHERE name = ?", [`attachments.${column}`]);
  }
}
