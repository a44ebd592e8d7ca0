import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["e2e/**/*.spec.ts"],
    globalSetup: ["e2e/global-setup.ts"],
    pool: "forks",
    // One browser and one server at a time: the machine is small and journeys share the server.
    fileParallelism: false,
    // One worker for every file, which keeps the modules it has loaded (playwright, the helpers).
    isolate: false,
    testTimeout: 90_000,
    hookTimeout: 180_000,
    // A page catches up in its own time on a loaded machine: expect.poll's 1 s default made journeys flaky.
    expect: { poll: { timeout: 15_000 } },
  },
});
