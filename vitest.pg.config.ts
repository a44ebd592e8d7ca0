import { defineConfig } from "vitest/config";
import { testFilesReaching } from "./server/test/database-test-files";
import { testPool } from "./server/test/test-pool";

// The server suite again on PostgreSQL: each test file that reaches a database through
// server/test/test-database.ts (the others have none to run on PostgreSQL; `npm test` ran them).
// Every test app gets a database of its own, copied from a migrated template, in a throwaway
// cluster the global setup starts (server/test/pg-cluster.ts). None of these files measures its
// own process's memory (the `*-memory` ones here measure a server process they start).
export default defineConfig({
  test: {
    ...testPool,
    // and the tests of the PostgreSQL tooling itself, which `npm test` leaves out (`*.pg.test.ts`).
    include: [...testFilesReaching("server", "server/test/test-database.ts"), "server/**/*.pg.test.ts"],
    globalSetup: ["server/test/pg-global-setup.ts"],
    setupFiles: ["server/openapi/contract-setup.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
