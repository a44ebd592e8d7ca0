import os from "node:os";

/**
 * How every vitest config runs its files. One worker process per core, at least two: vitest's
 * default (cores − 1) left one of this 2-core machine's cores idle while a test waited on a
 * timer or a child process. `isolate: false`: a worker keeps the modules it has loaded from one
 * file to the next instead of loading the app again for each (that was most of a small file's
 * time); the server keeps its state per app (WeakMaps keyed by the context), not per module.
 */
export const testPool = {
  pool: "forks",
  isolate: false,
  maxWorkers: Math.max(2, os.availableParallelism()),
} as const;
