import type { AppContext } from "../context";
import { runPeriodically } from "../periodic-task";
import { isPostgres } from "./transactions";

/** sqlite's full-text tables behind `q` (migration create_name_search_indexes). */
export const SEARCH_INDEXES = ["projects_search", "clients_search", "attachments_search"] as const;

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Merges each of sqlite's search indexes into one segment. FTS5 writes a segment per change and
 * merges them only now and then, and a search reads every segment: on the scale bench's 100,000
 * project names a search's index query took 220 µs before and 140 µs after. An index already
 * merged costs nothing; one that changed is rewritten under the write lock, one index at a time
 * (0.3 s for 100,000 names, 0.7 s for 1,000,000 file names on the bench's machine). PostgreSQL's
 * trigram indexes need nothing of the kind (autovacuum folds in their pending entries).
 * Answers how long each index took, in ms.
 */
export async function mergeSearchIndexes(ctx: Pick<AppContext, "db">): Promise<Record<string, number>> {
  if (isPostgres(ctx.db)) return {};
  const took: Record<string, number> = {};
  for (const index of SEARCH_INDEXES) {
    const began = performance.now();
    await ctx.db.raw(`INSERT INTO ${index} (${index}) VALUES ('optimize')`);
    took[index] = Math.round(performance.now() - began);
  }
  return took;
}

/** Merges the search indexes soon after start and then daily; answers the function that stops it. */
export function superviseSearchIndexes(ctx: AppContext): () => void {
  if (isPostgres(ctx.db)) return () => {};
  return runPeriodically(
    async () => ctx.logger.debug({ ms: await mergeSearchIndexes(ctx) }, "search indexes merged"),
    DAY_MS,
    (err) => ctx.logger.warn({ err: err.message }, "could not merge the search indexes"),
  );
}
