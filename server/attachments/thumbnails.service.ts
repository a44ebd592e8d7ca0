import type { AppContext } from "../context";
import { InsufficientStorageError } from "../http/errors";
import { isDiskFull } from "../storage/disk-full";
import { removeQuietly, uploadPath } from "../storage/paths";
import { renderStoredThumbnail } from "../storage/image-files";
import * as repo from "./attachments.repository";
import { ThumbnailQueue } from "./thumbnail-queue";

const queues = new WeakMap<AppContext, ThumbnailQueue>();

/** The thumbnail queue of one running app (tests run several apps in one process). */
export function thumbnailQueue(ctx: AppContext): ThumbnailQueue {
  let queue = queues.get(ctx);
  if (!queue) {
    queue = new ThumbnailQueue((id) => renderMissingThumbnail(ctx, id));
    queues.set(ctx, queue);
  }
  return queue;
}

/**
 * Renders the thumbnail an attachment was stored without and records it. Another process may
 * render the same one, or the attachment may be deleted meanwhile: whichever render is recorded
 * first stays, and a thumbnail no row names is removed. Rejects only when the disk is full
 * (InsufficientStorageError), leaving no file: it can be rendered once there is room again.
 */
async function renderMissingThumbnail(ctx: AppContext, id: number): Promise<string | null> {
  try {
    const record = await repo.findAttachment(ctx.db, id);
    if (!record || record.thumbnailKey) return record?.thumbnailKey ?? null;
    const thumbnailKey = await renderStoredThumbnail(ctx.config, record);
    if (await repo.setThumbnailKey(ctx.db, id, thumbnailKey)) return thumbnailKey;
    await removeQuietly(uploadPath(ctx.config, thumbnailKey));
    return (await repo.findAttachment(ctx.db, id))?.thumbnailKey ?? null;
  } catch (err) {
    if (isDiskFull(err)) {
      ctx.logger.warn({ attachmentId: id }, "could not render thumbnail: the disk is full");
      throw new InsufficientStorageError();
    }
    ctx.logger.warn({ err, attachmentId: id }, "could not render thumbnail");
    return null;
  }
}

/**
 * The storage key of an attachment's thumbnail, rendered first if it has none yet; null if it
 * cannot be. Rejects with InsufficientStorageError while the disk is too full to render it.
 */
export async function thumbnailKeyOf(
  ctx: AppContext,
  attachment: { id: number; thumbnailKey: string | null },
): Promise<string | null> {
  return attachment.thumbnailKey ?? thumbnailQueue(ctx).renderNow(attachment.id);
}

/** At start: thumbnails a stopped process had not rendered yet are rendered in idle time. */
export async function resumeThumbnails(ctx: AppContext): Promise<void> {
  thumbnailQueue(ctx).add(await repo.idsWithoutThumbnail(ctx.db));
}
