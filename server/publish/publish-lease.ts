import type { AppContext } from "../context";
import { removePublishedZips } from "../storage/published-zips";
import { failExpiredBuilds, renewLease, type AbandonedBuild } from "./publish.repository";
import { publishQueue } from "./publish-job";

export const ABANDONED_MESSAGE = "Interrupted: the process building the ZIP stopped. Publish again.";

/** When a lease taken or renewed now runs out. */
export function leaseUntil(ctx: AppContext, now = Date.now()): string {
  return new Date(now + ctx.config.publishLeaseSeconds * 1000).toISOString();
}

/**
 * Renews the lease of every build this process has queued or running. A build whose row no longer
 * names it (another process found its lease expired, or it was unpublished) is stopped here, so it
 * cannot carry on beside whatever the project does next.
 */
export async function renewLeases(ctx: AppContext): Promise<void> {
  const queue = publishQueue(ctx);
  const until = leaseUntil(ctx);
  for (const build of queue.builds()) {
    if (!(await renewLease(ctx.db, build.projectId, build.buildId, until))) {
      ctx.logger.warn({ projectId: build.projectId }, "lost the lease of a build; stopping it");
      void queue.cancelBuild(build.buildId);
    }
  }
}

/** Fails the builds whose process stopped renewing their lease, removes their partial files and says so. */
export async function reapAbandonedBuilds(ctx: AppContext, message = ABANDONED_MESSAGE): Promise<AbandonedBuild[]> {
  const abandoned = await failExpiredBuilds(ctx.db, message);
  for (const { id, publishFile } of abandoned) {
    // In object storage, its unfinished multipart upload is aborted by the sweep (upload-sweep.ts).
    if (publishFile) await removePublishedZips(ctx.config, publishFile);
    ctx.events.publishEvent({ projectId: id, type: "publish_failed", data: { error: message } });
    ctx.events.resourceChanged({ resource: "projects", type: "updated", ids: [id] });
  }
  if (abandoned.length > 0) {
    ctx.logger.warn({ projects: abandoned.map((b) => b.id) }, "failed builds whose process stopped");
  }
  return abandoned;
}

/**
 * Every third of the lease: renew this process's leases, then fail whatever build another
 * process abandoned. Every process runs one; answers the function that stops it.
 */
export function superviseBuilds(ctx: AppContext): () => void {
  let running: Promise<void> = Promise.resolve();
  const tick = () => {
    running = running
      .then(() => renewLeases(ctx))
      .then(() => reapAbandonedBuilds(ctx))
      .then(
        () => {},
        (err: Error) => ctx.logger.warn({ err: err.message }, "could not renew or check publish leases"),
      );
  };
  const timer = setInterval(tick, (ctx.config.publishLeaseSeconds * 1000) / 3);
  timer.unref();
  return () => clearInterval(timer);
}
