import type { AppContext } from "../context";
import { isPostgres } from "../db/transactions";
import { PUBLISHED_ZIP_NAME } from "../storage/paths";
import { storesOf } from "../storage/stores";
import { failInterruptedPublishes, referencedZipKeys } from "./publish.repository";
import { reapAbandonedBuilds } from "./publish-lease";

export const INTERRUPTED_MESSAGE = "Interrupted by a restart";

/** Only files the publisher itself names (a ZIP or its `.part`) are ever removed from PUBLISHED_DIR. */
const isPublisherFile = (name: string) => PUBLISHED_ZIP_NAME.test(name.replace(/\.part$/, ""));

/**
 * At start, before anything builds. On sqlite this process is the only one, so every project left
 * `publishing` was interrupted and becomes `failed` (it can be published again). On PostgreSQL other
 * processes may be building right now: only builds whose lease ran out are failed; the others are
 * left to their process, and to every process's lease check should it die. Then partial `.part`
 * files and ZIPs that no project refers to (left by a crash between the rename and the commit, or
 * between a commit and a file removal) are removed; a live build's file is referred to by its row.
 * A web-size ZIP (and its `.part`) goes or stays with the ZIP its name follows.
 */
export async function recoverInterruptedPublishes(ctx: AppContext): Promise<void> {
  const interrupted = isPostgres(ctx.db)
    ? (await reapAbandonedBuilds(ctx, INTERRUPTED_MESSAGE)).map((b) => b.id)
    : await failInterruptedPublishes(ctx.db, INTERRUPTED_MESSAGE);
  const referenced = await referencedZipKeys(ctx.db);
  const published = storesOf(ctx.config).published;
  const strays: string[] = [];
  for await (const { key } of published.list(""))
    if (isPublisherFile(key) && !referenced.has(key.replace(/\.part$/, ""))) strays.push(key);
  await published.remove(...strays);
  if (interrupted.length > 0 || strays.length > 0) {
    ctx.logger.warn({ projects: interrupted, removedFiles: strays.length }, "recovered from interrupted publishing");
  }
}
