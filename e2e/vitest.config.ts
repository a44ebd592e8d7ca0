import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["e2e/**/*.spec.ts"],
    globalSetup: ["e2e/global-setup.ts"],
    pool: "forks",
    // One browser and one server at a time: the machine is small and journeys share the server.
    fileParallelism: false,
    testTimeout: 90_000,
    hookTimeout: 180_000,
  },
});
