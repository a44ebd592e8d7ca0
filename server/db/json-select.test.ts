import { describe, expect, it } from "vitest";
import { appWithUser } from "../test/app-with-user";
import { jsonSql } from "./json-select";
import { isPostgres } from "./transactions";

const made = appWithUser();
const db = () => made.t.ctx.db;

describe("jsonSql.iso", () => {
  it("gives what the server writes unchanged and any other date text as toISOString would", async () => {
    const stored = [
      "2026-11-27T00:15:37.123Z",
      "2026-11-27 00:15:37",
      "2026-02-03T04:05:06Z",
      "2026-11-27T00:15:37.000+02:00",
    ];
    const iso = jsonSql(db()).iso("t.d").sql;
    const values = stored.map(() => (isPostgres(db()) ? "SELECT ?::text AS d" : "SELECT ? AS d")).join(" UNION ALL ");
    const rows = await db().raw(`SELECT t.d AS stored, ${iso} AS api FROM (${values}) t`, stored);
    const found = (isPostgres(db()) ? rows.rows : rows) as Array<{ stored: string; api: string }>;
    expect(Object.fromEntries(found.map((r) => [r.stored, r.api]))).toEqual(
      Object.fromEntries(stored.map((d) => [d, new Date(d.includes("T") ? d : `${d}Z`).toISOString()])),
    );
  });

  it("keeps null as null", async () => {
    const iso = jsonSql(db()).iso("NULL").sql;
    const rows = await db().raw(`SELECT ${iso} AS api`);
    expect((isPostgres(db()) ? rows.rows : rows)[0].api).toBeNull();
  });
});

describe("jsonSql.object", () => {
  it("writes every kind of value as JSON, nulls included, with any text escaped", async () => {
    const json = jsonSql(db());
    const text = `Quote " backslash \\ new\nline tab\t é 日本 \u0001`;
    const row = isPostgres(db())
      ? "SELECT ?::int AS id, ?::text AS name, ?::boolean AS flag"
      : "SELECT ? AS id, ? AS name, ? AS flag";
    const object = json.object({
      id: json.number("t.id"),
      name: "t.name",
      flag: json.bool("t.flag"),
      at: json.iso("NULL"),
      nested: { id: json.number("t.id"), name: "t.name" },
      when: json.objectWhen("t.id IS NOT NULL", { id: json.number("t.id") }),
    });
    const rows = await db().raw(`SELECT ${object} AS o FROM (${row} UNION ALL ${row}) t ORDER BY t.id IS NULL`, [
      7,
      text,
      true,
      null,
      null,
      null,
    ]);
    const found = ((isPostgres(db()) ? rows.rows : rows) as Array<{ o: string }>).map((r) => JSON.parse(r.o));
    expect(found).toEqual([
      { id: 7, name: text, flag: true, at: null, nested: { id: 7, name: text }, when: { id: 7 } },
      { id: null, name: null, flag: false, at: null, nested: { id: null, name: null }, when: null },
    ]);
  });
});
