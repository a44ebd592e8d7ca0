import type { AppContext } from "../context";
import { InsufficientStorageError } from "../http/errors";
import { isDiskFull } from "../storage/disk-full";
import { storesOf } from "../storage/stores";
import { RENDITIONS, renderStoredRendition, type Rendition } from "../storage/image-files";
import * as repo from "./attachments.repository";
import { RenditionQueue } from "./rendition-queue";

const queues = new WeakMap<AppContext, RenditionQueue>();

/** The rendition queue of one running app (tests run several apps in one process). */
export function renditionQueue(ctx: AppContext): RenditionQueue {
  let queue = queues.get(ctx);
  if (!queue) {
    queue = new RenditionQueue((rendition, id) => renderMissing(ctx, rendition, id));
    queues.set(ctx, queue);
  }
  return queue;
}

/** Where an attachment record (or a delivery's photo) names each rendition's file. */
export const KEY_FIELDS = { thumbnail: "thumbnailKey", preview: "previewKey" } as const;

/**
 * Renders a rendition an attachment has not got yet and records it. Another process may render
 * the same one, or the attachment may be deleted meanwhile: whichever render is recorded first
 * stays, and a file no row names is removed. Rejects only when the disk is full
 * (InsufficientStorageError), leaving no file: it can be rendered once there is room again.
 */
async function renderMissing(ctx: AppContext, rendition: Rendition, id: number): Promise<string | null> {
  const keyOf = (record?: repo.AttachmentRecord) => record?.[KEY_FIELDS[rendition]] ?? null;
  try {
    const record = await repo.findAttachment(ctx.db, id);
    if (!record || keyOf(record)) return keyOf(record);
    const key = await renderStoredRendition(ctx.config, record, rendition);
    if (await repo.setRenditionKey(ctx.db, id, rendition, key)) return key;
    await storesOf(ctx.config).uploads.remove(key);
    return keyOf(await repo.findAttachment(ctx.db, id));
  } catch (err) {
    if (isDiskFull(err)) {
      ctx.logger.warn({ attachmentId: id }, `could not render ${rendition}: the disk is full`);
      throw new InsufficientStorageError();
    }
    ctx.logger.warn({ err, attachmentId: id }, `could not render ${rendition}`);
    return null;
  }
}

/**
 * The storage key of an attachment's rendition, rendered first if it has none yet; null if it
 * cannot be. Rejects with InsufficientStorageError while the disk is too full to render it.
 */
export async function renditionKeyOf(
  ctx: AppContext,
  rendition: Rendition,
  attachment: { id: number; thumbnailKey: string | null; previewKey: string | null },
): Promise<string | null> {
  return attachment[KEY_FIELDS[rendition]] ?? renditionQueue(ctx).renderNow(rendition, attachment.id);
}

/** Photos the queue asks for at a time when it resumes: a million waiting previews are never read at once. */
export const RESUME_BATCH = 1000;

/**
 * At start: renditions a stopped process had not rendered yet (or, after the upgrade that brought
 * previews, every photo's preview) are rendered in idle time, read a batch at a time as the queue
 * runs dry. A batch that cannot be read ends the resumption until the next start.
 */
export function resumeRenditions(ctx: AppContext): void {
  for (const rendition of RENDITIONS) {
    let after = 0;
    renditionQueue(ctx).feed(rendition, async () => {
      try {
        const ids = await repo.idsWithout(ctx.db, rendition, after, RESUME_BATCH);
        after = ids.at(-1) ?? after;
        return ids;
      } catch (err) {
        ctx.logger.warn({ err }, `could not read the photos still without a ${rendition}`);
        return [];
      }
    });
  }
}
