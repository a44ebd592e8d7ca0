import request from "supertest";
import { beforeAll, describe, expect, it } from "vitest";
import { appWithUser } from "../test/app-with-user";
import { insertProjectRow } from "../test/rows";
import { isPostgres } from "../db/transactions";

const made = appWithUser();
const minute = (n: number) => new Date(Date.UTC(2020, 0, 1) + n * 60_000).toISOString();

/** What a page must be: every project sorted by creation time, then id, in SQL. */
async function expected(direction: "asc" | "desc", like?: string): Promise<number[]> {
  const query = made.t.ctx.db("projects").orderBy([
    { column: "created_at", order: direction },
    { column: "id", order: direction },
  ]);
  if (like) query.whereRaw("lower(name) like ?", [`%${like}%`]);
  return ((await query.pluck("id")) as number[]).map(Number);
}

async function page(path: string): Promise<{ ids: number[]; total: number }> {
  const res = await request(made.t.app).get(path).set(made.user.auth);
  expect(res.status).toBe(200);
  return { ids: (res.body as Array<{ id: number }>).map((p) => p.id), total: Number(res.headers["x-total-count"]) };
}

/** Every page of both directions, with and without a search, against the SQL order. */
async function expectCreationOrder() {
  for (const direction of ["desc", "asc"] as const) {
    const all = await expected(direction);
    for (const start of [0, 275, 550]) {
      const got = await page(`/api/projects?_sort=createdAt&_order=${direction}&_start=${start}&_end=${start + 25}`);
      expect(got).toEqual({ ids: all.slice(start, start + 25), total: all.length });
    }
    const smiths = await expected(direction, "smith");
    for (const start of [0, 25]) {
      const got = await page(
        `/api/projects?q=SMITH&_sort=createdAt,id&_order=${direction},${direction}&_start=${start}&_end=${start + 25}`,
      );
      expect(got).toEqual({ ids: smiths.slice(start, start + 25), total: smiths.length });
    }
  }
}

const disorder = async () =>
  (await made.t.ctx.db("list_totals").where({ name: "projects.created_at_disorder" }).first("total"))?.total;

beforeAll(async () => {
  for (let i = 0; i < 600; i++) {
    await insertProjectRow(made.t.ctx, { name: i % 7 === 0 ? `Smith ${i}` : `Other ${i}`, createdAt: minute(i) });
  }
});

describe("lists sorted by creation time", () => {
  it("follow the creation time while projects are created in order, as the app creates them", async () => {
    for (const name of ["Smith by the API", "Another by the API"]) {
      await request(made.t.app).post("/api/projects").set(made.user.auth).send({ name }).expect(201);
    }
    if (!isPostgres(made.t.ctx.db)) expect(await disorder()).toBe(0);
    await expectCreationOrder();
  });

  it("still follow it after a project is imported with an earlier time, and after a time is changed", async () => {
    await insertProjectRow(made.t.ctx, { name: "Smith imported", createdAt: minute(-10) });
    await insertProjectRow(made.t.ctx, { name: "Smith imported later", createdAt: minute(300) });
    if (!isPostgres(made.t.ctx.db)) expect(await disorder()).toBe(1);
    await expectCreationOrder();
    const [newest] = await expected("desc");
    await made.t.ctx
      .db("projects")
      .where({ id: newest })
      .update({ created_at: minute(-20) });
    await expectCreationOrder();
  });
});

describe("a search's total", () => {
  it("follows creations, renames, failed changes and deletions", async () => {
    const total = async () => (await page("/api/projects?q=jones&_start=0&_end=25")).total;
    expect(await total()).toBe(0);
    const res = await request(made.t.app).post("/api/projects").set(made.user.auth).send({ name: "Jones wedding" });
    expect(await total()).toBe(1);
    await insertProjectRow(made.t.ctx, { name: "Other shoot" });
    const other = (await expected("desc"))[0];
    await request(made.t.app).patch(`/api/projects/${other}`).set(made.user.auth).send({ name: "JONES portraits" });
    expect(await total()).toBe(2);
    await made.t.ctx.db
      .transaction(async (trx) => {
        await trx("projects").where({ id: other }).update({ name: "Renamed" });
        throw new Error("rolled back");
      })
      .catch(() => undefined);
    expect(await total()).toBe(2);
    await request(made.t.app).delete(`/api/projects/${res.body.id}`).set(made.user.auth).expect(204);
    expect(await total()).toBe(1);
  });
});
