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
    const iso = jsonSql(db()).iso("t.d");
    const values = stored.map(() => (isPostgres(db()) ? "SELECT ?::text AS d" : "SELECT ? AS d")).join(" UNION ALL ");
    const rows = await db().raw(`SELECT t.d AS stored, ${iso} AS api FROM (${values}) t`, stored);
    const found = (isPostgres(db()) ? rows.rows : rows) as Array<{ stored: string; api: string }>;
    expect(Object.fromEntries(found.map((r) => [r.stored, r.api]))).toEqual(
      Object.fromEntries(stored.map((d) => [d, new Date(d.includes("T") ? d : `${d}Z`).toISOString()])),
    );
  });

  it("keeps null as null", async () => {
    const iso = jsonSql(db()).iso("NULL");
    const rows = await db().raw(`SELECT ${iso} AS api`);
    expect((isPostgres(db()) ? rows.rows : rows)[0].api).toBeNull();
  });
});
