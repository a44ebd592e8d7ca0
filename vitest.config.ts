import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["server/**/*.test.ts", "admin/src/**/*.test.{ts,tsx}", "lint/**/*.test.ts"],
    pool: "forks",
    testTimeout: 20_000,
    hookTimeout: 30_000,
  },
});
