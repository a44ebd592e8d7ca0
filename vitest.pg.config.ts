import { defineConfig } from "vitest/config";

// The whole server suite on PostgreSQL: every test app gets a database of its own in a
// throwaway cluster the global setup starts (server/test/pg-cluster.ts).
export default defineConfig({
  test: {
    include: ["server/**/*.test.ts"],
    pool: "forks",
    globalSetup: ["server/test/pg-global-setup.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
