import knex from "knex";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startPgCluster } from "./pg-cluster";
import { squatOnAPort, takenFirst } from "./taken-port";

// In the PostgreSQL suite (`npm run test:pg`) only: `npm test` needs no PostgreSQL installed.
let taken: number;
let release: () => Promise<void>;

beforeAll(async () => {
  ({ taken, release } = await squatOnAPort());
});

afterAll(() => release());

describe("a PostgreSQL cluster started on a port another process took after it was picked", () => {
  it("brings a PostgreSQL cluster up on another port", async () => {
    const { pick, picked } = takenFirst(taken);
    const cluster = await startPgCluster(pick);
    try {
      expect(picked[0]).toBe(taken);
      expect(new URL(cluster.url).port).toBe(String(picked[1]));
      const db = knex({ client: "pg", connection: cluster.url });
      try {
        expect((await db.raw("select 1 as one")).rows).toEqual([{ one: 1 }]);
      } finally {
        await db.destroy();
      }
    } finally {
      cluster.stop();
    }
  }, 120_000);
});
