import request from "supertest";
import { beforeAll, describe, expect, it } from "vitest";
import { appWithUser } from "../test/app-with-user";
import { insertAttachmentRow, insertClientRow } from "../test/rows";
import { MARK_EVERY } from "./page-marks";
import { isPostgres } from "./transactions";

const made = appWithUser();
const PROJECTS = 1100;
const clients: number[] = [];

/** Rows with ties on every sorted column (names, dates and counts repeat), spread unevenly over three clients. */
beforeAll(async () => {
  for (const name of ["Big", "Small", "Other"]) clients.push(await insertClientRow(made.t.ctx, name));
  const rows = Array.from({ length: PROJECTS }, (_, i) => ({
    name: `Project ${String((i * 37) % 700).padStart(3, "0")}`,
    client_id: i % 10 < 7 ? clients[0] : clients[1 + (i % 2)],
    publish_status: "draft",
    created_at: new Date(Date.UTC(2025, 0, 1, 0, Math.floor(i / 3))).toISOString(),
    updated_at: new Date(Date.UTC(2025, 5, 1, 0, (i * 7919) % 500)).toISOString(),
  }));
  for (let i = 0; i < rows.length; i += 200) await made.t.ctx.db("projects").insert(rows.slice(i, i + 200));
});

const SORTS: Array<[string, string]> = [
  ["createdAt", "created_at"],
  ["name", "name"],
  ["updatedAt", "updated_at"],
  ["attachmentCount", "attachment_count"],
  ["id", "id"],
];

/** The order as the database gives it by a plain ORDER BY over the whole table: the oracle. */
async function expectedIds(column: string, order: "asc" | "desc", clientId?: number): Promise<number[]> {
  const query = made.t.ctx.db("projects").orderBy(column, order).orderBy("id", order);
  if (clientId !== undefined) query.where({ client_id: clientId });
  return ((await query.pluck("id")) as number[]).map(Number);
}

async function pageIds(query: string) {
  const res = await request(made.t.app).get(`/api/projects?${query}`).set(made.user.auth);
  expect(res.status).toBe(200);
  return { ids: (res.body as Array<{ id: number }>).map((p) => p.id), total: Number(res.headers["x-total-count"]) };
}

/** The statements both pools ran while answering `page`, each with the pool that ran it. */
async function runOf(page: () => Promise<unknown>): Promise<Array<{ pool: "reads" | "main"; sql: string }>> {
  const { reads, db } = made.t.ctx;
  const seen: Array<{ pool: "reads" | "main"; sql: string }> = [];
  const stops = [...new Set([reads, db])].map((pool) => {
    const watch = (q: { sql: string }) => seen.push({ pool: pool === reads ? "reads" : "main", sql: q.sql });
    pool.on("query", watch);
    return () => pool.off("query", watch);
  });
  try {
    await page();
  } finally {
    for (const stop of stops) stop();
  }
  return seen;
}
const statementsOf = async (page: () => Promise<unknown>) => (await runOf(page)).map((s) => s.sql);

/** Every sort, both directions, pages at the start, past the first mark, deep, at the end and past it. */
async function expectEveryPageRight(sorts = SORTS, clientId?: number) {
  for (const [field, column] of sorts) {
    for (const order of ["asc", "desc"] as const) {
      const expected = await expectedIds(column, order, clientId);
      for (const start of [0, MARK_EVERY + 1, 600, expected.length - 20, expected.length + 5]) {
        const filter = clientId === undefined ? "" : `clientId=${clientId}&`;
        const page = await pageIds(`${filter}_start=${start}&_end=${start + 25}&_sort=${field}&_order=${order}`);
        expect({ field, order, start, ...page }).toEqual({
          field,
          order,
          start,
          ids: expected.slice(start, start + 25),
          total: expected.length,
        });
      }
    }
  }
}

describe("deep pages start from a mark instead of walking every row before them", () => {
  it("answers every page as ORDER BY … OFFSET would, whole list and one client's", async () => {
    await expectEveryPageRight();
    await expectEveryPageRight(SORTS.slice(0, 2), clients[0]);
  });

  it("walks at most the rows between two marks for a page near the end", async () => {
    const offsets: number[] = [];
    const watch = (q: { sql: string; bindings?: unknown[] }) => {
      if (/offset (\?|\$\d+|CAST\(\?)/i.test(q.sql)) offsets.push(Number(q.bindings?.at(-1)));
    };
    made.t.ctx.reads.on("query", watch);
    try {
      await pageIds(`_start=${PROJECTS - 30}&_end=${PROJECTS - 5}&_sort=name&_order=desc`);
    } finally {
      made.t.ctx.reads.off("query", watch);
    }
    expect(offsets.length).toBeGreaterThan(0);
    expect(Math.max(...offsets)).toBeLessThan(MARK_EVERY);
  });

  it("stays right after renames, new and deleted projects, moves between clients and new photos", async () => {
    const api = () => request(made.t.app);
    const auth = made.user.auth;
    const ids = await expectedIds("id", "asc");
    for (const [i, id] of ids.slice(0, 40).entries()) {
      await api()
        .patch(`/api/projects/${id}`)
        .set(auth)
        .send({ name: `Renamed ${i}` })
        .expect(200);
    }
    for (let i = 0; i < 15; i++)
      await api()
        .post("/api/projects")
        .set(auth)
        .send({ name: `Project 350 new ${i}` });
    for (const id of ids.slice(500, 520)) await api().delete(`/api/projects/${id}`).set(auth).expect(204);
    for (const id of ids.slice(600, 640)) {
      await api().patch(`/api/projects/${id}`).set(auth).send({ clientId: clients[2] }).expect(200);
    }
    for (const id of ids.slice(700, 760)) await insertAttachmentRow(made.t.ctx, id, { size: id });
    await expectEveryPageRight();
    await expectEveryPageRight(SORTS.slice(0, 1), clients[0]);
    await expectEveryPageRight(SORTS.slice(0, 1), clients[2]);
  });

  it("stays right when a change is rolled back", async () => {
    await made.t.ctx.db
      .transaction(async (trx) => {
        await trx("projects").insert({
          name: "Rolled back",
          created_at: "2030-01-01T00:00:00.000Z",
          updated_at: "2030-01-01T00:00:00.000Z",
        });
        await trx("projects").where("id", "<", 50).delete();
        throw new Error("give up");
      })
      .catch(() => undefined);
    await expectEveryPageRight(SORTS.slice(0, 2));
  });
});

describe("a page's window", () => {
  it("is written into sqlite's statement as a number, its offset cast: sqlite plans with a bound LIMIT's value (and an OFFSET's over the search index), so binding one has the kept statement parsed and planned again on every call", async () => {
    const pg = isPostgres(made.t.ctx.db);
    const pages = [
      "_start=7&_end=32&_sort=name&_order=asc",
      `_start=${MARK_EVERY + 30}&_end=${MARK_EVERY + 55}&_sort=name&_order=asc`,
      `clientId=${clients[0]}&_start=50&_end=60&_sort=createdAt&_order=desc`,
      "q=project%204&_start=25&_end=50&_sort=id&_order=desc",
      "q=project%204&_start=0&_end=25&_sort=createdAt&_order=desc",
    ];
    for (const query of pages) {
      const limited = (await statementsOf(() => pageIds(query))).filter((sql) => / LIMIT /.test(sql));
      expect(limited.length, query).toBeGreaterThan(0);
      for (const sql of limited) {
        if (pg) expect(sql, query).toMatch(/ LIMIT \?/);
        else expect(sql, query).toMatch(/ LIMIT (25|10)( OFFSET CAST\(\? AS INTEGER\))?\b/);
        // A scalar subquery's constant `LIMIT 1)` (a project's first photo, for its cover) is no page's limit.
        expect(sql, query).not.toMatch(pg ? / LIMIT \d+(?![\d)])/ : /(LIMIT|OFFSET) \?/);
      }
    }
  });
});

describe("a deep page's statements", () => {
  it("are one once its marks are kept and nothing was written (PostgreSQL checks their versions in it)", async () => {
    await pageIds("_start=600&_end=625&_sort=name&_order=asc");
    let ids: number[] = [];
    const statements = await statementsOf(
      async () => ({ ids } = await pageIds("_start=625&_end=650&_sort=name&_order=asc")),
    );
    expect(ids).toHaveLength(25);
    expect(statements).toHaveLength(1);
  });
});

describe("a search's total", () => {
  const db = () => made.t.ctx.db;
  /** The oracle: what the search matches, counted over the whole table. */
  const matching = async (text: string) =>
    Number(
      (
        await db()("projects")
          .whereRaw("lower(name) LIKE ?", [`%${text}%`])
          .count({ n: "*" })
      )[0].n,
    );
  const searchPage = (text: string, start: number, sort = "createdAt") =>
    pageIds(`q=${encodeURIComponent(text)}&_start=${start}&_end=${start + 25}&_sort=${sort}&_order=desc`);

  it("is counted for the first page and kept for the next, in one statement a page", async () => {
    const first = await searchPage("project 2", 0);
    expect(first.total).toBe(await matching("project 2"));
    const next = await statementsOf(() => searchPage("project 2", 25));
    expect(next).toHaveLength(1);
    expect(next[0]).not.toMatch(/count\(/i);
  });

  it("reads a search's count and page in one statement, on the connections that keep one plan when the suffix index, or three letters or digits in a row, narrow the search (PostgreSQL)", async () => {
    /** The pool that read the first page's rows, and how many times its statement reads the search. */
    const readOn = async (text: string, sort?: string) => {
      let total = 0;
      const seen = await runOf(async () => ({ total } = await searchPage(text, 0, sort)));
      expect(total).toBe(await matching(text));
      const page = seen.find((q) => /count\(/i.test(q.sql))!;
      return { pool: page.pool, searches: page.sql.match(/ LIKE | MATCH | suffix >= /g)!.length };
    };
    const pg = isPostgres(db());
    // sqlite counts in a statement of its own, and has one pool for reads. PostgreSQL reads the
    // suffix index twice (a count and a page, each cheaper than one read kept for both).
    expect(await readOn("project 1")).toEqual({ pool: "reads", searches: pg ? 2 : 1 });
    expect(await readOn("t 1")).toEqual({ pool: "reads", searches: pg ? 2 : 1 });
    // Sorted by name, PostgreSQL's search reads the trigram index once for both, which "t 3"
    // cannot narrow (new texts: a count already kept would leave the statement without one).
    expect(await readOn("ject 1", "name")).toEqual({ pool: "reads", searches: 1 });
    expect(await readOn("t 3", "name")).toEqual({ pool: pg ? "main" : "reads", searches: 1 });
  });

  it("stays exact when rows, names and clients change behind the process's back (another process, on PostgreSQL)", async () => {
    const text = "project 3";
    const client = clients[0];
    const at = "2031-01-01T00:00:00.000Z";
    const ofClient = async () =>
      Number(
        (
          await db()("projects")
            .whereRaw("lower(name) LIKE ?", [`%${text}%`])
            .where({ client_id: client })
            .count({ n: "*" })
        )[0].n,
      );
    const expectExact = async () => {
      for (const start of [0, 25]) {
        expect((await searchPage(text, start)).total).toBe(await matching(text));
        const inClient = await pageIds(
          `clientId=${client}&q=${encodeURIComponent(text)}&_start=${start}&_end=${start + 25}`,
        );
        expect(inClient.total).toBe(await ofClient());
      }
    };
    await expectExact();
    // Written straight to the database, as another process would: this one hears of none of it.
    await db()("projects").insert({ name: "Project 399 behind", client_id: client, created_at: at, updated_at: at });
    await expectExact();
    const [renamed, moved] = await db()("projects")
      .whereRaw("lower(name) LIKE ?", ["%project 3%"])
      .where({ client_id: client })
      .orderBy("id")
      .pluck("id");
    await db()("projects").where({ id: renamed }).update({ name: "Elsewhere" });
    await expectExact();
    await db()("projects").where({ id: moved }).update({ client_id: clients[1] });
    await expectExact();
    await db()("projects").whereIn("id", db()("projects").select("id").where("name", "Project 399 behind")).delete();
    await expectExact();
    await db()("projects").where({ id: renamed }).update({ name: "Project 300 again" });
    await expectExact();
  });

  it("of a search in one client's projects is kept for the next page on PostgreSQL too", async () => {
    const path = (start: number) => `clientId=${clients[0]}&q=project%202&_start=${start}&_end=${start + 25}`;
    await pageIds(path(0));
    const next = await statementsOf(() => pageIds(path(25)));
    expect(next.filter((sql) => /count\(/i.test(sql))).toHaveLength(isPostgres(db()) ? 0 : 1);
  });
});

describe("the connections list pages are read on", () => {
  it("keep one plan per statement on PostgreSQL and are read-only on sqlite; the main pool's are neither", async () => {
    const { db, reads } = made.t.ctx;
    if (isPostgres(db)) {
      const mode = async (pool: typeof db) => (await pool.raw("SHOW plan_cache_mode")).rows[0].plan_cache_mode;
      expect(await mode(reads)).toBe("force_generic_plan");
      expect(await mode(db)).toBe("auto");
    } else {
      expect(await reads.raw("PRAGMA query_only")).toEqual([{ query_only: 1 }]);
      expect(await db.raw("PRAGMA query_only")).toEqual([{ query_only: 0 }]);
    }
  });
});
