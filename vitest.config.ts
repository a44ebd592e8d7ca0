import { configDefaults, defineConfig } from "vitest/config";
import { testPool } from "./server/test/test-pool";

export default defineConfig({
  test: {
    ...testPool,
    testTimeout: 20_000,
    hookTimeout: 30_000,
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          globalSetup: ["server/test/template-global-setup.ts"],
          // Every supertest answer checked against the OpenAPI document (server/openapi/contract-hook.ts).
          setupFiles: ["server/openapi/contract-setup.ts"],
          include: ["server/**/*.test.ts", "admin/src/**/*.test.{ts,tsx}", "lint/**/*.test.ts"],
          // `*.pg.test.ts` need PostgreSQL (several processes on one database): `npm run test:pg` runs them.
          exclude: [...configDefaults.exclude, "server/**/*.pg.test.ts", "server/**/*-memory.test.ts"],
        },
      },
      {
        extends: true,
        // They measure their own process's memory: each in a process of its own.
        test: { name: "memory", include: ["server/**/*-memory.test.ts"], isolate: true },
      },
    ],
  },
});
