import request from "supertest";
import { describe, expect, it } from "vitest";
import { sqliteWriteCount } from "../db/dialect";
import { PageCache } from "./page-cache";
import { appWithUser } from "../test/app-with-user";
import { insertClientRow } from "../test/rows";

const made = appWithUser();

const api = () => request(made.t.app);
const page = "/api/clients?_start=0&_end=1000&_sort=name&_order=asc";
const namesOf = (res: request.Response) => (res.body as Array<{ name: string }>).map((c) => c.name);

/** The list queries the read pool runs while `work` runs: the page's, and its total's (kept in list_totals). */
async function listQueriesDuring(work: () => Promise<unknown>) {
  let queries = 0;
  const count = (q: { sql: string }) => /from [`"]?(clients|list_totals)\b/i.test(q.sql) && (queries += 1);
  made.t.ctx.reads.on("query", count);
  try {
    await work();
  } finally {
    made.t.ctx.reads.off("query", count);
  }
  return queries;
}

describe("list pages answered again while nothing was written", () => {
  it("shows a write through the API in the very next list call", async () => {
    await api().get(page).set(made.user.auth).expect(200);
    const created = await api().post("/api/clients").set(made.user.auth).send({ name: "Cache Fresh One" }).expect(201);
    expect(namesOf(await api().get(page).set(made.user.auth))).toContain("Cache Fresh One");
    await api()
      .patch(`/api/clients/${created.body.id}`)
      .set(made.user.auth)
      .send({ name: "Cache Fresh Two" })
      .expect(200);
    const after = await api().get(page).set(made.user.auth);
    expect(namesOf(after)).toContain("Cache Fresh Two");
    expect(namesOf(after)).not.toContain("Cache Fresh One");
    await api().delete(`/api/clients/${created.body.id}`).set(made.user.auth).expect(204);
    expect(namesOf(await api().get(page).set(made.user.auth))).not.toContain("Cache Fresh Two");
  });

  it("shows a row written straight through the database, and one committed by a transaction", async () => {
    await api().get(page).set(made.user.auth).expect(200);
    await insertClientRow(made.t.ctx, "Cache Direct Row");
    expect(namesOf(await api().get(page).set(made.user.auth))).toContain("Cache Direct Row");

    await made.t.ctx.db.transaction(async (trx) => {
      await trx("clients").insert({
        name: "Cache In Transaction",
        created_at: "2026-01-01T00:00:00.000Z",
        updated_at: "2026-01-01T00:00:00.000Z",
      });
      // Read while the transaction is open: the page cannot hold the uncommitted row yet.
      expect(namesOf(await api().get(page).set(made.user.auth))).not.toContain("Cache In Transaction");
    });
    expect(namesOf(await api().get(page).set(made.user.auth))).toContain("Cache In Transaction");
    expect(Number((await api().get(page).set(made.user.auth)).headers["x-total-count"])).toBe(
      Number((await made.t.ctx.db("clients").count({ n: "*" }).first())!.n),
    );
  });

  it("answers twenty identical calls at once with one query on sqlite, and a query each where other processes may write", async () => {
    await insertClientRow(made.t.ctx, "Cache Burst");
    const queries = await listQueriesDuring(async () => {
      const answers = await Promise.all(Array.from({ length: 20 }, () => api().get(page).set(made.user.auth)));
      for (const res of answers) {
        expect(res.status).toBe(200);
        expect(namesOf(res)).toContain("Cache Burst");
      }
    });
    // On PostgreSQL each call is one statement, its total a column of it; on sqlite the page is read
    // once, and the totals (kept until this process writes) once.
    if (sqliteWriteCount(made.t.ctx.db) === undefined) expect(queries).toBe(20);
    else expect(queries).toBe(2);
  });

  it("still refuses bad list parameters, cached page or not", async () => {
    await api().get(page).set(made.user.auth).expect(200);
    await api().get("/api/clients?_sort=nope").set(made.user.auth).expect(400);
    await api().get(page).expect(401);
  });
});

describe("what the page cache keeps", () => {
  const counting = () => {
    const loads = new Map<string, number>();
    const load = (key: string, rows: unknown[]) => () => {
      loads.set(key, (loads.get(key) ?? 0) + 1);
      return Promise.resolve({ body: Buffer.from(JSON.stringify(rows)), total: rows.length });
    };
    return { loads, load };
  };

  it("reads again once the write count moved, and keeps nothing without one", async () => {
    let writes: number | undefined = 1;
    const cache = new PageCache(() => writes);
    const { loads, load } = counting();
    await cache.get("a", load("a", [1]));
    await cache.get("a", load("a", [1]));
    expect(loads.get("a")).toBe(1);
    writes = 2;
    expect(await cache.get("a", load("a", [2]))).toEqual({ body: Buffer.from("[2]"), total: 1 });
    writes = undefined;
    await cache.get("a", load("a", [3]));
    await cache.get("a", load("a", [3]));
    expect(loads.get("a")).toBe(4);
  });

  it("lets go of the least recently used pages beyond a few megabytes of bodies", async () => {
    const cache = new PageCache(() => 0);
    const { loads, load } = counting();
    const big = ["x".repeat(3_000_000)];
    for (const key of ["one", "two", "three"]) await cache.get(key, load(key, big));
    await cache.get("two", load("two", big));
    await cache.get("three", load("three", big));
    expect(loads.get("two")).toBe(1);
    expect(loads.get("three")).toBe(1);
    await cache.get("one", load("one", big));
    expect(loads.get("one")).toBe(2);
  });

  it("does not keep a page whose read failed", async () => {
    const cache = new PageCache(() => 0);
    await expect(cache.get("k", () => Promise.reject(new Error("database gone")))).rejects.toThrow("database gone");
    const empty = { body: Buffer.from("[]"), total: 0 };
    expect(await cache.get("k", () => Promise.resolve(empty))).toEqual(empty);
  });
});
