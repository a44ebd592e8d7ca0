import type { Knex } from "knex";

/**
 * Rows counted per table, and the sums the dashboard shows. `total` is the count (or the sum for
 * `<table>.<column>` rows); `version` goes up whenever rows are added or removed, so a process that
 * keeps where list pages begin (server/db/page-marks.ts) knows when that changed, whichever
 * process wrote.
 */
const COUNTED = ["clients", "contacts", "projects", "attachments"];
/** Summed columns: attachments' bytes (the photos) and published ZIPs' bytes. */
const SUMMED = [
  { table: "attachments", column: "size" },
  { table: "projects", column: "published_zip_size" },
];

/**
 * Kept by triggers in the same statement as the change, so the totals are exact in every
 * transaction, committed or rolled back, on sqlite and on PostgreSQL with any number of processes.
 * On PostgreSQL inserts and deletes are counted per statement (a bulk delete updates each total
 * once); updates of a summed column per row.
 */
export async function up(knex: Knex): Promise<void> {
  const pg = knex.client.dialect === "postgresql";
  await knex.schema.createTable("list_totals", (t) => {
    t.string("name", 64).primary();
    t.bigInteger("total").notNullable().defaultTo(0);
    t.bigInteger("version").notNullable().defaultTo(0);
  });
  for (const table of COUNTED) {
    await knex.raw(`INSERT INTO list_totals (name, total) SELECT '${table}', count(*) FROM ${table}`);
  }
  for (const { table, column } of SUMMED) {
    await knex.raw(
      `INSERT INTO list_totals (name, total) SELECT '${table}.${column}', coalesce(sum(${column}), 0) FROM ${table}`,
    );
  }
  for (const table of COUNTED) {
    const sums = SUMMED.filter((s) => s.table === table);
    if (pg) {
      const changes = (rows: string, sign: "+" | "-") => [
        `UPDATE list_totals SET total = total ${sign} (SELECT count(*) FROM ${rows}), version = version + 1 WHERE name = '${table}';`,
        ...sums.map(
          (s) =>
            `UPDATE list_totals SET total = total ${sign} (SELECT coalesce(sum(${s.column}), 0) FROM ${rows}) WHERE name = '${table}.${s.column}';`,
        ),
      ];
      for (const [event, rows, sign] of [
        ["INSERT", "added", "+"],
        ["DELETE", "removed", "-"],
      ] as const) {
        const name = `${table}_list_totals_${rows}`;
        await knex.raw(`CREATE FUNCTION ${name}() RETURNS trigger AS $$ BEGIN
            IF EXISTS (SELECT 1 FROM ${rows}) THEN ${changes(rows, sign).join(" ")} END IF;
            RETURN NULL;
          END $$ LANGUAGE plpgsql`);
        await knex.raw(`CREATE TRIGGER ${name} AFTER ${event} ON ${table}
            REFERENCING ${event === "INSERT" ? "NEW" : "OLD"} TABLE AS ${rows} FOR EACH STATEMENT EXECUTE FUNCTION ${name}()`);
      }
      for (const s of sums) {
        const name = `${table}_list_totals_${s.column}`;
        await knex.raw(`CREATE FUNCTION ${name}() RETURNS trigger AS $$ BEGIN
            UPDATE list_totals SET total = total + coalesce(NEW.${s.column}, 0) - coalesce(OLD.${s.column}, 0)
              WHERE name = '${table}.${s.column}';
            RETURN NULL;
          END $$ LANGUAGE plpgsql`);
        await knex.raw(`CREATE TRIGGER ${name} AFTER UPDATE OF ${s.column} ON ${table} FOR EACH ROW
            WHEN (OLD.${s.column} IS DISTINCT FROM NEW.${s.column}) EXECUTE FUNCTION ${name}()`);
      }
    } else {
      const changes = (row: "NEW" | "OLD", sign: "+" | "-") => [
        `UPDATE list_totals SET total = total ${sign} 1, version = version + 1 WHERE name = '${table}';`,
        ...sums.map(
          (s) =>
            `UPDATE list_totals SET total = total ${sign} coalesce(${row}.${s.column}, 0) WHERE name = '${table}.${s.column}';`,
        ),
      ];
      await knex.raw(`CREATE TRIGGER ${table}_list_totals_insert AFTER INSERT ON ${table}
          BEGIN ${changes("NEW", "+").join(" ")} END`);
      await knex.raw(`CREATE TRIGGER ${table}_list_totals_delete AFTER DELETE ON ${table}
          BEGIN ${changes("OLD", "-").join(" ")} END`);
      for (const s of sums) {
        await knex.raw(`CREATE TRIGGER ${table}_list_totals_${s.column} AFTER UPDATE OF ${s.column} ON ${table}
            WHEN OLD.${s.column} IS NOT NEW.${s.column}
            BEGIN UPDATE list_totals SET total = total + coalesce(NEW.${s.column}, 0) - coalesce(OLD.${s.column}, 0)
              WHERE name = '${table}.${s.column}'; END`);
      }
    }
  }
}

export async function down(knex: Knex): Promise<void> {
  const pg = knex.client.dialect === "postgresql";
  for (const table of COUNTED) {
    const names = [
      ...(pg ? ["added", "removed"] : ["insert", "delete"]),
      ...SUMMED.filter((s) => s.table === table).map((s) => s.column),
    ].map((suffix) => `${table}_list_totals_${suffix}`);
    for (const name of names) {
      await knex.raw(pg ? `DROP TRIGGER ${name} ON ${table}` : `DROP TRIGGER ${name}`);
      if (pg) await knex.raw(`DROP FUNCTION ${name}()`);
    }
  }
  await knex.schema.dropTable("list_totals");
}
