import fsp from "node:fs/promises";
import path from "node:path";
import type { AppContext } from "../context";
import { PUBLISHED_ZIP_NAME, publishedZipFile, removeQuietly } from "../storage/paths";
import { failInterruptedPublishes, referencedZipPaths } from "./publish.repository";

export const INTERRUPTED_MESSAGE = "Interrupted by a restart";

/** Only files the publisher itself names (a ZIP or its `.part`) are ever removed from PUBLISHED_DIR. */
const isPublisherFile = (name: string) => PUBLISHED_ZIP_NAME.test(name.replace(/\.part$/, ""));

/**
 * At start, before anything builds: projects left `publishing` become `failed` (they can be
 * published again), partial `.part` files are removed, and so are ZIPs no project refers to
 * (left by a crash between the rename and the commit, or between a commit and a file removal).
 */
export async function recoverInterruptedPublishes(ctx: AppContext): Promise<void> {
  const interrupted = await failInterruptedPublishes(ctx.db, INTERRUPTED_MESSAGE);
  const referenced = new Set((await referencedZipPaths(ctx.db)).map((p) => path.basename(p)));
  const strays = (await fsp.readdir(ctx.config.publishedDir)).filter(
    (name) => isPublisherFile(name) && !referenced.has(name),
  );
  await removeQuietly(...strays.map((name) => publishedZipFile(ctx.config, name)));
  if (interrupted.length > 0 || strays.length > 0) {
    ctx.logger.warn({ projects: interrupted, removedFiles: strays.length }, "recovered from interrupted publishing");
  }
}
