import type { AppContext } from "../context";
import { storesOf } from "../storage/stores";
import { referencedZipKeys } from "./publish.repository";

/** How often the bucket is asked for unfinished uploads; their parts only cost storage meanwhile. */
const SWEEP_EVERY_MS = 10 * 60_000;
/** A photo's upload to the bucket takes seconds; one unfinished for an hour was left by a process that died. */
const UPLOAD_ABANDONED_MS = 60 * 60_000;

export interface SweepResult {
  /** Unfinished multipart uploads aborted, ZIPs and photos together. */
  aborted: number;
  /** Why the bucket could not be swept (a server that does not list multipart uploads); nothing else is wrong. */
  error?: string;
}

/**
 * In object storage, aborts the multipart uploads a process left behind when it died mid-write:
 * a ZIP's (older than twice PUBLISH_LEASE_SECONDS and named by no project, so not a live build's,
 * whose row names its ZIP while its lease is renewed) and a photo's (older than an hour). A bucket
 * keeps the parts of an upload nobody completes or aborts, and bills them, until then. Never rejects.
 */
export async function sweepAbandonedUploads(ctx: AppContext, now = Date.now()): Promise<SweepResult> {
  const { uploads, published } = storesOf(ctx.config);
  if (published.kind === "disk") return { aborted: 0 };
  try {
    const referenced = await referencedZipKeys(ctx.db);
    const zipsBefore = new Date(now - ctx.config.publishLeaseSeconds * 2000);
    const zips = await published.abortUnfinishedWriters("", zipsBefore, (key) => referenced.has(key));
    const photos = await uploads.abortUnfinishedWriters("", new Date(now - UPLOAD_ABANDONED_MS), () => false);
    if (zips + photos > 0)
      ctx.logger.warn({ zips, photos }, "aborted unfinished multipart uploads left by a stopped process");
    return { aborted: zips + photos };
  } catch (err) {
    const e = err as { name?: string; message?: string };
    return { aborted: 0, error: `${e.name ?? "Error"}: ${e.message ?? String(err)}` };
  }
}

/** Sweeps at start and every ten minutes; says once that a bucket cannot be swept. Answers the function that stops it. */
export function superviseAbandonedUploads(ctx: AppContext): () => void {
  if (storesOf(ctx.config).published.kind === "disk") return () => {};
  let warned = false;
  const sweep = () =>
    void sweepAbandonedUploads(ctx).then(({ error }) => {
      if (!error || warned) return;
      warned = true;
      ctx.logger.warn({ err: error }, "cannot sweep unfinished multipart uploads: the storage refused to list them");
    });
  sweep();
  const timer = setInterval(sweep, SWEEP_EVERY_MS);
  timer.unref();
  return () => clearInterval(timer);
}
