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
    await db.raw("ANALYZE");
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
    expect(await planOf("/api/projects?q=sainte&_start=0&_end=25")).toMatch(/projects_search/);
    expect(await planOf("/api/clients?q=ÉCOLE&_start=0&_end=25")).toMatch(/clients_search/);
    expect(await planOf("/api/attachments?q=dossard&_start=0&_end=25")).toMatch(/attachments_search/);
  });
});
