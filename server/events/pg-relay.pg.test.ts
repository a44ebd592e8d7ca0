import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../test/harness";
import { until } from "../test/wait";
import type { ResourceChange } from "./bus";
import { EVENTS_APPLICATION_NAME } from "./pg-relay";

/** Two app contexts on one PostgreSQL database, as two processes would be. */
let a: TestApp;
let b: TestApp;

beforeAll(async () => {
  a = await createTestApp();
  b = await createTestApp({
    DATABASE_URL: a.ctx.config.databaseUrl,
    UPLOADS_DIR: a.ctx.config.uploadsDir,
    PUBLISHED_DIR: a.ctx.config.publishedDir,
  });
});
afterAll(async () => {
  await b.close();
  await a.close();
});

function heardOn(t: TestApp): ResourceChange[] {
  const heard: ResourceChange[] = [];
  t.ctx.events.onResourceChanged((change) => heard.push(change));
  return heard;
}

describe("the PostgreSQL event relay", () => {
  it("hands each announcement to the other context once, and never back to its sender", async () => {
    const onA = heardOn(a);
    const onB = heardOn(b);
    a.ctx.events.resourceChanged({ resource: "clients", type: "created", ids: [41] });
    await until(
      () => onB.length,
      (n) => n >= 2,
    );
    // All A sent is in PostgreSQL, and both have heard everything sent before they asked: a second
    // copy, or A's own announcement handed back to it, would be here by now.
    await a.ctx.events.sent();
    expect(await a.ctx.events.caughtUp()).toBe(true);
    expect(await b.ctx.events.caughtUp()).toBe(true);
    const expected = [
      { resource: "clients", type: "created", ids: [41] },
      { resource: "dashboard", type: "updated", ids: ["stats"] },
    ];
    expect(onB).toEqual(expected);
    expect(onA).toEqual(expected);
  });

  it("has every announcement another context sent before it asked, once caught up, a hundred times in a row", async () => {
    const onB = heardOn(b);
    for (let n = 1; n <= 100; n++) {
      a.ctx.events.resourceChanged({ resource: "projects", type: "updated", ids: [n] });
      await a.ctx.events.sent();
      expect(await b.ctx.events.caughtUp()).toBe(true);
      expect(onB.at(-1), `announcement ${n}`).toEqual({ resource: "projects", type: "updated", ids: [n] });
    }
  });

  it("listens again by itself after its connection is killed", async () => {
    const onB = heardOn(b);
    const admin = new pg.Client({ connectionString: a.ctx.config.databaseUrl });
    await admin.connect();
    try {
      const killed = await admin.query(
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1 AND datname = current_database()",
        [EVENTS_APPLICATION_NAME],
      );
      expect(killed.rowCount).toBe(2);
    } finally {
      await admin.end();
    }
    let sent = 0;
    await until(
      () => {
        a.ctx.events.resourceChanged({ resource: "projects", type: "updated", ids: [++sent] });
        return onB.length;
      },
      (n) => n > 0,
      10_000,
    );
    expect(onB[0]).toMatchObject({ resource: "projects", type: "updated" });
  });
});
