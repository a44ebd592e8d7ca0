import { configDefaults, defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["server/**/*.test.ts", "admin/src/**/*.test.{ts,tsx}", "lint/**/*.test.ts"],
    // `*.pg.test.ts` need PostgreSQL (several processes on one database): `npm run test:pg` runs them.
    exclude: [...configDefaults.exclude, "server/**/*.pg.test.ts"],
    pool: "forks",
    testTimeout: 20_000,
    hookTimeout: 30_000,
  },
});
