import type { AppContext } from "../context";
import { readAll } from "../storage/object-store";
import { storesOf } from "../storage/stores";
import * as repo from "./attachments.repository";
import { captureTimeOf, EXIF_HEAD_BYTES } from "./capture-time";

/** Photos read per batch, and the pause between batches, so requests and renditions go first. */
export const CAPTURE_BATCH = 20;
export const CAPTURE_PAUSE_MS = 250;

/**
 * The capture time at the start of a stored photo of `size` bytes (its row's), read through the
 * store (disk or S3); null when none or unreadable.
 */
async function storedCaptureTime(ctx: AppContext, photo: { storageKey: string; size: number }): Promise<string | null> {
  if (photo.size <= 0) return null;
  const range = { start: 0, end: Math.min(photo.size, EXIF_HEAD_BYTES) - 1 };
  return captureTimeOf(await readAll(await storesOf(ctx.config).uploads.get(photo.storageKey, range)));
}

/**
 * Reads the capture time of up to `limit` photos stored before capture times were kept, after
 * `afterId`; each is marked read, with or without a time, so it is read once. Answers the last id
 * of the batch, or undefined when none was left. Ends early, between photos, once `stopped` says so.
 */
export async function readCaptureTimes(ctx: AppContext, afterId = 0, limit = CAPTURE_BATCH, stopped = () => false) {
  const photos = await repo.uncheckedCaptureTimes(ctx.db, afterId, limit);
  for (const photo of photos) {
    if (stopped()) break;
    let capturedAt: string | null = null;
    try {
      capturedAt = await storedCaptureTime(ctx, photo);
    } catch (err) {
      ctx.logger.warn({ err, attachmentId: photo.id }, "could not read a photo's capture time");
    }
    await repo.setCaptureTime(ctx.db, photo.id, capturedAt);
  }
  return photos.at(-1)?.id;
}

/**
 * After start, reads the capture times of photos stored by an earlier release in small batches
 * with pauses between, until none is left; never delays start. Answers the function that stops it,
 * whose promise ends with the batch under way (after the photo it is reading), so the database
 * can then be closed.
 */
export function backfillCaptureTimes(ctx: AppContext, pauseMs = CAPTURE_PAUSE_MS): () => Promise<void> {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let batch: Promise<void> = Promise.resolve();
  const next = (afterId: number) => {
    if (stopped) return;
    timer = setTimeout(() => {
      batch = readCaptureTimes(ctx, afterId, CAPTURE_BATCH, () => stopped).then(
        (last) => {
          if (last === undefined) ctx.logger.debug("every photo's capture time is read");
          else next(last);
        },
        (err: unknown) => {
          ctx.logger.warn({ err }, "reading capture times stopped; it resumes at the next start");
        },
      );
    }, pauseMs);
    timer.unref();
  };
  next(0);
  return () => {
    stopped = true;
    clearTimeout(timer);
    return batch;
  };
}
