import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, createUser, type TestApp } from "../test/harness";
import { publishDelivery, type PublishedDelivery } from "../delivery/test-fixtures";
import { visitorOf } from "./test-fixtures";
import { FAVOURITE_LIMITS } from "./favourite-limits";

let t: TestApp;
let d: PublishedDelivery;

beforeAll(async () => {
  t = await createTestApp({ TRUST_PROXY: "1" });
  d = await publishDelivery(t, await createUser(t.ctx), { name: "Lima Wedding" });
});
afterAll(() => t.close());

describe("favourites' budgets against requests sent at once", () => {
  it("let no more new visitors of one link and address in than the budget, however many come at once", async () => {
    const budget = FAVOURITE_LIMITS.visitors.limit;
    const answers = await Promise.all(
      Array.from({ length: budget * 3 }, (_, i) => visitorOf(t, d.token, "198.51.100.7").join(`Guest ${i}`)),
    );
    const statuses = answers.map((res) => res.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(budget);
    expect(statuses.filter((s) => s === 429)).toHaveLength(budget * 2);
    expect(await t.ctx.db("favourite_visitors").where({ project_id: d.id })).toHaveLength(budget);
  });
});
