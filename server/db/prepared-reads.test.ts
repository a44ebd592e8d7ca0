import { describe, expect, it } from "vitest";
import { appWithUser } from "../test/app-with-user";
import { readRows } from "./prepared-reads";
import { isPostgres } from "./transactions";

const made = appWithUser();
const db = () => made.t.ctx.db;
const cast = (type: string) => (isPostgres(db()) ? `?::${type}` : "?");

describe("readRows", () => {
  it("reads a kept statement again with other values", async () => {
    const text = `SELECT ${cast("int")} + 1 AS n, ${cast("text")} AS label`;
    expect(await readRows(db(), { text, values: [1, "one"] })).toEqual([{ n: 2, label: "one" }]);
    expect(await readRows(db(), { text, values: [41, "forty-one"] })).toEqual([{ n: 42, label: "forty-one" }]);
  });

  it("rejects with the database's error and gives its connection back", async () => {
    const text = `SELECT CAST(${cast("text")} AS INTEGER) AS n FROM no_such_table`;
    // More failures than the pool has connections: one kept by a failed read would stop the last read.
    for (let i = 0; i < 12; i++) await expect(readRows(db(), { text, values: ["1"] })).rejects.toThrow(/no_such_table/);
    expect(await readRows(db(), { text: `SELECT ${cast("int")} AS n`, values: [7] })).toEqual([{ n: 7 }]);
  });
});
