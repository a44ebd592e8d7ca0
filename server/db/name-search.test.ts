import request from "supertest";
import { beforeAll, describe, expect, it } from "vitest";
import { appWithUser } from "../test/app-with-user";
import { isPostgres } from "./transactions";
import { attachmentRow, insertAttachmentRow, insertClientRow, insertProjectRow } from "../test/rows";

const made = appWithUser();

/** Names with accents in both cases, mixed case, punctuation, LIKE's own wildcards, quotes and other scripts. */
const NAMES = [
  "École Sainte-Anne",
  "ÉCOLE SAINTE-ANNE",
  "école sainte-anne",
  "Ecole Sainte Anne",
  "Lycée Jean-Jaurès — portraits 2031",
  "LYCÉE JEAN-JAURÈS",
  "Müller & Söhne",
  "MÜLLER",
  "muller",
  "O'Brien's wedding",
  'The "Quoted" shoot',
  "100% wedding",
  "100 percent",
  "under_score day",
  "underXscore day",
  "back\\slash",
  "Straße Fest",
  "STRASSE",
  "İstanbul trip",
  "istanbul",
  "Ǆungla",
  "ǆungla",
  "ﬁne ligature",
  "📷 shoot 📷",
  "Ω Omega ω",
  "a",
  "ab",
  "   spaced   out   ",
  "Mariée (12).JPG",
  "MARIÉE (12).jpg",
  "dossard 0123 — marathon.jpg",
  // Longer than the 32 characters PostgreSQL's suffix index keeps of a name.
  "Portraits de classe — École Sainte-Anne-des-Monts, 2031",
  // The code points around which a prefix's range is computed (server/db/suffix-search.ts).
  "edge \u{10FFFF}\u{10FFFF} end",
  "edge \uD7FF\u{E000} end",
];

const QUERIES = [
  "école",
  "ÉCOLE",
  "Ecole",
  "cole",
  "COLE",
  "sainte-anne",
  "te-an",
  "lycée",
  "LYCÉE",
  "ycé",
  "jaurès",
  "JAURÈS",
  "—",
  "müller",
  "MÜLLER",
  "üll",
  "muller",
  "o'brien",
  "'s w",
  '"quoted"',
  '"',
  "%",
  "100%",
  "0%",
  "_",
  "r_s",
  "under_score",
  "\\",
  "k\\s",
  "straße",
  "STRASSE",
  "ss",
  "İstanbul",
  "istanbul",
  "ǆ",
  "Ǆ",
  "ﬁ",
  "fi",
  "📷",
  "📷 s",
  "ω",
  "Ω",
  "a",
  "ab",
  "abc",
  "  ",
  "   spaced",
  "(12)",
  ".jpg",
  "ée (",
  "É",
  "é",
  "e",
  "dossard 0123",
  "0123 —",
  "zzz",
  "classe — école sainte-anne-des-m",
  "classe — école sainte-anne-des-mo",
  "portraits de classe — école sainte-anne-des-monts, 2031",
  "\u{10FFFF}",
  "e \u{10FFFF}",
  "\u{10FFFF} e",
  "\uD7FF",
  "e \uD7FF",
  "\u{E000}",
];

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/** What `q` matched before the index: lower(column) LIKE '%text%' over every row. */
async function matchedBefore(table: string, column: string, text: string): Promise<number[]> {
  const rows = await made.t.ctx
    .db(table)
    .whereRaw("lower(??) like ? escape '\\'", [column, `%${escapeLike(text.toLowerCase())}%`])
    .orderBy("id")
    .pluck("id");
  return (rows as number[]).map(Number);
}

async function found(path: string): Promise<{ ids: number[]; total: number }> {
  const res = await request(made.t.app).get(path).set(made.user.auth);
  expect(res.status).toBe(200);
  return {
    ids: (res.body as Array<{ id: number }>).map((r) => r.id).sort((a, b) => a - b),
    total: Number(res.headers["x-total-count"]),
  };
}

let project: number;

beforeAll(async () => {
  project = await insertProjectRow(made.t.ctx, { name: "Photos" });
  for (const name of NAMES) {
    await insertProjectRow(made.t.ctx, { name });
    await insertClientRow(made.t.ctx, name);
    await insertAttachmentRow(made.t.ctx, project, { size: 1, originalName: name });
  }
});

describe("search by name through the index finds exactly what lower(name) LIKE found", () => {
  it.each([
    ["projects, q", "projects", "name", (q: string) => `/api/projects?q=${q}&_start=0&_end=100`],
    [
      "projects, q, newest first",
      "projects",
      "name",
      (q: string) => `/api/projects?q=${q}&_start=0&_end=100&_sort=createdAt&_order=desc`,
    ],
    ["projects, q, by name", "projects", "name", (q: string) => `/api/projects?q=${q}&_start=0&_end=100&_sort=name`],
    ["clients, q", "clients", "name", (q: string) => `/api/clients?q=${q}&_start=0&_end=100`],
    ["photos, q", "attachments", "original_name", (q: string) => `/api/attachments?q=${q}&_start=0&_end=100`],
    [
      "photos, originalName_like",
      "attachments",
      "original_name",
      (q: string) => `/api/attachments?originalName_like=${q}&_start=0&_end=100`,
    ],
    [
      "one project's photos, q",
      "attachments",
      "original_name",
      (q: string) => `/api/attachments?projectId=${project}&q=${q}&_start=0&_end=100`,
    ],
  ])("%s", async (_label, table, column, path) => {
    for (const query of QUERIES) {
      // q is trimmed (list-query.ts), a field's _like is not.
      const expected = await matchedBefore(table, column, path("").includes("_like=") ? query : query.trim());
      const got = await found(path(encodeURIComponent(query)));
      expect({ query, ...got }).toEqual({ query, ids: expected, total: expected.length });
    }
  });

  it("refuses a NUL in a search or a text filter with a 400, and goes on answering", async () => {
    for (const path of [
      "/api/projects?q=ab%00",
      "/api/clients?q=%00abc",
      "/api/attachments?q=img%00",
      "/api/attachments?originalName_like=a%00b",
    ]) {
      const res = await request(made.t.app).get(path).set(made.user.auth);
      expect({ path, status: res.status, message: res.body.message }).toEqual({
        path,
        status: 400,
        message: expect.stringMatching(/must not contain a NUL character/),
      });
    }
    expect((await found("/api/projects?q=ecole")).total).toBeGreaterThan(0);
  });

  it("keeps finding a project after it is renamed, and stops finding a deleted one", async () => {
    const id = await insertProjectRow(made.t.ctx, { name: "Before Rename" });
    await request(made.t.app).patch(`/api/projects/${id}`).set(made.user.auth).send({ name: "Après Renommage" });
    expect((await found("/api/projects?q=before")).ids).toEqual([]);
    expect((await found("/api/projects?q=APRÈS")).ids).toEqual(await matchedBefore("projects", "name", "APRÈS"));
    expect((await found("/api/projects?q=après")).ids).toEqual([id]);
    await request(made.t.app).delete(`/api/projects/${id}`).set(made.user.auth).expect(204);
    expect((await found("/api/projects?q=après")).ids).toEqual([]);
  });
});

describe("a search newest first (PostgreSQL: from the names' suffix index) stays exact", () => {
  const at = (day: number) => new Date(Date.UTC(2030, 0, day)).toISOString();

  /** The ids `q` finds newest first, in order, and those lower(name) LIKE finds in that order. */
  async function newestFirst(text: string) {
    const res = await request(made.t.app)
      .get(`/api/projects?q=${encodeURIComponent(text)}&_sort=createdAt&_order=desc&_start=0&_end=100`)
      .set(made.user.auth);
    expect(res.status).toBe(200);
    const expected = await made.t.ctx
      .db("projects")
      .whereRaw("lower(name) like ? escape '\\'", [`%${escapeLike(text.toLowerCase())}%`])
      .orderBy([
        { column: "created_at", order: "desc" },
        { column: "id", order: "desc" },
      ])
      .pluck("id");
    return { got: (res.body as Array<{ id: number }>).map((r) => r.id), expected: expected.map(Number) };
  }

  /** On PostgreSQL, that the suffix table holds exactly every project's suffixes, no more. */
  async function expectSuffixesExact() {
    const db = made.t.ctx.db;
    if (!isPostgres(db)) return;
    const all = `SELECT DISTINCT substr(lower(name), i, 32) AS suffix, id AS project_id, created_at
      FROM projects, generate_series(1, length(lower(name))) i`;
    const kept = "SELECT suffix, project_id, created_at FROM project_name_suffixes";
    const differ = await db.raw(
      `SELECT count(*) AS n FROM ((${all} EXCEPT ALL ${kept}) UNION ALL (${kept} EXCEPT ALL ${all})) d`,
    );
    expect(Number(differ.rows[0].n)).toBe(0);
  }

  it("through bulk inserts, renames, re-dating, a rolled-back delete and a bulk delete", async () => {
    const db = made.t.ctx.db;
    const rows = ["Bulk Zeta one", "bulk zeta zeta two", "BULK ZETA THREE"].map((name, i) => ({
      name,
      created_at: at(i + 1),
      updated_at: at(i + 1),
    }));
    const ids = (await db("projects").insert(rows, ["id"])).map((r) => Number(typeof r === "object" ? r.id : r));
    const check = async (text: string, count: number) => {
      const { got, expected } = await newestFirst(text);
      expect({ text, got }).toEqual({ text, got: expected });
      expect(got).toHaveLength(count);
      await expectSuffixesExact();
    };
    await check("bulk zeta", 3);
    await db("projects")
      .where({ id: ids[0] })
      .update({ created_at: at(9) });
    await check("bulk zeta", 3);
    await db("projects").where({ id: ids[1] }).update({ name: "Renamed Omega" });
    await check("bulk zeta", 2);
    await check("zeta zeta", 0);
    await check("ed omeg", 1);
    await expect(
      db.transaction(async (trx) => {
        await trx("projects").whereIn("id", ids).del();
        throw new Error("rolled back");
      }),
    ).rejects.toThrow("rolled back");
    await check("bulk zeta", 2);
    await db("projects").whereIn("id", ids).del();
    await check("bulk zeta", 0);
    await check("ed omeg", 0);
  });
});

describe("what serves a search", () => {
  /** Enough rows that reading them all costs more than the index, as in a studio's database; then fresh statistics. */
  beforeAll(async () => {
    const at = "2026-01-01T00:00:00.000Z";
    const rows = (make: (i: number) => object) => Array.from({ length: 20_000 }, (_, i) => make(i));
    const db = made.t.ctx.db;
    const insert = async (table: string, all: object[]) => {
      for (let i = 0; i < all.length; i += 400) await db(table).insert(all.slice(i, i + 400));
    };
    await insert(
      "projects",
      rows((i) => ({ name: `Filler ${i}`, created_at: at, updated_at: at })),
    );
    await insert(
      "clients",
      rows((i) => ({ name: `Filler ${i}`, created_at: at, updated_at: at })),
    );
    await insert(
      "attachments",
      rows((i) =>
        attachmentRow(project, {
          size: 1,
          originalName: `IMG_${i}.jpg`,
          storageKey: `${project}/filler-${i}.jpg`,
          createdAt: at,
        }),
      ),
    );
    // On PostgreSQL, VACUUM too: it empties the trigram indexes' pending lists (a manual ANALYZE
    // leaves them), whose length otherwise depends on whether autovacuum ran and sways the planner.
    await db.raw(isPostgres(db) ? "VACUUM ANALYZE" : "ANALYZE");
  });

  /** The plan of the statement a list request ran. */
  async function planOf(path: string): Promise<string> {
    const seen: Array<{ sql: string; bindings: unknown[] }> = [];
    const watch = (q: { sql: string; bindings?: unknown[] }) => seen.push({ sql: q.sql, bindings: q.bindings ?? [] });
    // Searches are read on the main pool where the read pool keeps generic plans (PostgreSQL).
    const pools = new Set([made.t.ctx.reads, made.t.ctx.db]);
    for (const pool of pools) pool.on("query", watch);
    try {
      await found(path);
    } finally {
      for (const pool of pools) pool.off("query", watch);
    }
    const { sql, bindings } = seen.find((q) => /json/i.test(q.sql))!;
    const db = made.t.ctx.db;
    if (!isPostgres(db)) {
      const steps = (await db.raw(`EXPLAIN QUERY PLAN ${sql}`, bindings as never)) as Array<{ detail: string }>;
      return steps.map((s) => s.detail).join("\n");
    }
    // knex reports PostgreSQL's numbered placeholders; raw() takes question marks, in the same order.
    const steps = await db.raw(`EXPLAIN ${sql.replace(/\$\d+/g, "?")}`, bindings as never);
    return (steps.rows as Array<{ "QUERY PLAN": string }>).map((s) => s["QUERY PLAN"]).join("\n");
  }

  it("reads the name index for three characters or more, on either database", async () => {
    const pg = isPostgres(made.t.ctx.db);
    // PostgreSQL reads a search of projects in id or creation order from their names' suffixes.
    expect(await planOf("/api/projects?q=sainte&_start=0&_end=25")).toMatch(
      pg ? /project_name_suffixes_pkey/ : /projects_search/,
    );
    expect(await planOf("/api/projects?q=sainte&_start=0&_end=25&_sort=createdAt&_order=desc")).toMatch(
      pg ? /project_name_suffixes_pkey/ : /projects_search/,
    );
    expect(await planOf("/api/projects?q=sainte&_start=0&_end=25&_sort=name")).toMatch(/projects_search/);
    expect(await planOf(`/api/projects?q=${"sainte ".repeat(6)}&_start=0&_end=25`)).toMatch(/projects_search/);
    expect(await planOf("/api/clients?q=ÉCOLE&_start=0&_end=25")).toMatch(/clients_search/);
    expect(await planOf("/api/attachments?q=dossard&_start=0&_end=25")).toMatch(/attachments_search/);
  });
});
