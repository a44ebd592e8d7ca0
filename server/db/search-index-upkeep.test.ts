import request from "supertest";
import { describe, expect, it } from "vitest";
import { appWithUser } from "../test/app-with-user";
import { insertProjectRow } from "../test/rows";
import { until } from "../test/wait";
import { mergeSearchIndexes, SEARCH_INDEXES, superviseSearchIndexes } from "./search-index-upkeep";
import { isPostgres } from "./transactions";

const made = appWithUser();
const db = () => made.t.ctx.db;

/** The rows of sqlite's full-text tables' storage: a segment is at least one. */
async function storedRows(): Promise<number> {
  let rows = 0;
  for (const index of SEARCH_INDEXES) rows += Number((await db()(`${index}_data`).count({ n: "*" }).first())?.n);
  return rows;
}

const found = async (q: string) =>
  (
    await request(made.t.app)
      .get(`/api/projects?q=${encodeURIComponent(q)}&_sort=id&_order=asc`)
      .set(made.user.auth)
      .expect(200)
  ).body.map((p: { name: string }) => p.name);

describe("merging the search indexes", () => {
  it("finds the same names afterwards, in fewer segments, at start and whenever it runs again", async () => {
    // FTS5 merges small segments itself now and then; with its merging off, each write here stays
    // a segment of its own, as larger ones accumulate on a studio's years of data.
    const pg = isPostgres(db());
    if (!pg) {
      await db().raw("INSERT INTO projects_search (projects_search, rank) VALUES ('automerge', 0)");
      await db().raw("INSERT INTO projects_search (projects_search, rank) VALUES ('crisismerge', 100)");
    }
    for (let i = 0; i < 60; i++) {
      await insertProjectRow(made.t.ctx, { name: i % 3 === 0 ? `Mariage Lefèvre ${i}` : `Portraits ${i}` });
    }
    await request(made.t.app).patch("/api/projects/1").set(made.user.auth).send({ name: "Renamed Lefèvre" });
    const searches = ["lefèvre", "portraits 1", "mariage", "renamed"];
    const before = await Promise.all(searches.map(found));
    expect(before[0].length).toBeGreaterThan(0);

    if (pg) {
      expect(await mergeSearchIndexes(made.t.ctx)).toEqual({});
      expect(await Promise.all(searches.map(found))).toEqual(before);
      return;
    }
    const rowsBefore = await storedRows();
    const stop = superviseSearchIndexes(made.t.ctx);
    try {
      await until(storedRows, (rows) => rows < rowsBefore / 2);
    } finally {
      stop();
    }
    expect(await Promise.all(searches.map(found))).toEqual(before);
    // Already merged: nothing to rewrite; after a change, the change is found and merged in.
    const merged = await storedRows();
    await mergeSearchIndexes(made.t.ctx);
    expect(await storedRows()).toBe(merged);
    await request(made.t.app).post("/api/projects").set(made.user.auth).send({ name: "Lefèvre again" }).expect(201);
    await mergeSearchIndexes(made.t.ctx);
    expect(await found("lefèvre")).toEqual([...before[0], "Lefèvre again"]);
    expect(await storedRows()).toBe(merged);
  });
});
