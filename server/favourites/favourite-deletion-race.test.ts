import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, createUser, type TestApp, type TestUser } from "../test/harness";
import { publishDelivery } from "../delivery/test-fixtures";
import { visitorOf } from "./test-fixtures";

let t: TestApp;
let staff: TestUser;
let address = 0;
const nextIp = () => `198.51.100.${++address}`;

beforeAll(async () => {
  t = await createTestApp({ TRUST_PROXY: "1" });
  staff = await createUser(t.ctx);
});
afterAll(() => t.close());

/** Resolves once `count` of the promises have settled. */
function answered(promises: Array<Promise<unknown>>, count: number): Promise<void> {
  if (count === 0) return Promise.resolve();
  return new Promise((resolve) => {
    let settled = 0;
    const one = () => void (++settled === count && resolve());
    for (const p of promises) p.then(one, one);
  });
}

describe("a favourite added while its photo is being deleted", () => {
  it("answers 404 (or 403 once the visitor is gone too), never a 500, nor a 500 for the deletion, wherever the deletion lands", async () => {
    const statuses: number[] = [];
    for (let round = 0; round < 12; round++) {
      const d = await publishDelivery(t, staff, { name: `Race ${round}`, photoNames: ["a.jpg", "b.jpg", "c.jpg"] });
      const visitors = [visitorOf(t, d.token, nextIp()), visitorOf(t, d.token, nextIp())];
      for (const v of visitors) expect((await v.join()).status).toBe(201);
      await visitors[0].mark(1).expect(200); // the link's photos are now in this process's memory
      const marks = visitors.flatMap((v) => [1, 2, 3].map((n) => v.mark(n, `round ${round}`).then((r) => r.status)));
      // The deletion starts a little later each round: with none of the marks answered yet, then
      // once one more has been answered every other round, and after all of them in the last.
      await answered(marks, Math.round((round * marks.length) / 11));
      const deleted = await request(t.app).delete(`/api/projects/${d.id}`).set(staff.auth);
      // Neither side is the victim of a deadlock (PostgreSQL).
      expect(deleted.status).toBe(204);
      statuses.push(...(await Promise.all(marks)));
    }
    expect(statuses.filter((s) => ![200, 403, 404].includes(s))).toEqual([]);
  }, 60_000);
});
