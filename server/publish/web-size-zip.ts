import type { AppContext } from "../context";
import { renditionKeyOf } from "../attachments/renditions.service";
import { webSizeNameOf } from "./download-name";
import { storesOf } from "../storage/stores";
import { zipEntryNames } from "./entry-names";
import type { PublishableAttachment } from "./publish.repository";
import type { ZipSource } from "./zip-writer";

/**
 * What rendering one missing preview counts for in the build's progress, in stored bytes: a
 * render takes about half a second (docs/photo-safety.md, Previews), in which a build stores about 100 MB
 * (docs/performance.md, Publish). Without it the bar would stand still while previews are made.
 */
export const RENDER_WORK = 100_000_000;
/** A preview's size before it is measured (docs/photo-safety.md: 300–600 kB, never more than its photo). */
const PREVIEW_GUESS = 500_000;
/** Missing previews rendered at once; the shared decode budget still has the last word. */
const RENDERS_AT_ONCE = 2;

/** The progress work the web-size ZIP is expected to take, before its previews are made and measured. */
export function expectedWebSizeWork(attachments: PublishableAttachment[]): number {
  return attachments.reduce((sum, a) => sum + (a.previewKey ? 0 : RENDER_WORK) + Math.min(a.size, PREVIEW_GUESS), 0);
}

export interface WebSizeSources {
  sources: ZipSource[];
  /** The progress work these sources took and will take: the renders done and the previews' bytes. */
  work: number;
}

/**
 * The web-size ZIP's entries, in the originals' order: each photo's preview (a JPEG, named like
 * the original with `-web.jpg`, IMG_0103-web.jpg, de-duplicated the same way), rendered first where
 * it is missing, through the rendition queue and so within the decode budget uploads share. A
 * photo whose preview cannot be rendered (damaged) goes in as itself, as the delivery page then
 * shows it. Rejects with InsufficientStorageError when the disk is too full to render one.
 */
export async function webSizeSources(
  ctx: AppContext,
  attachments: PublishableAttachment[],
  options: { signal: AbortSignal; onWork: (work: number) => void },
): Promise<WebSizeSources> {
  const keys = await renderMissingPreviews(ctx, attachments, options);
  const uploads = storesOf(ctx.config).uploads;
  // A path on disk, a key in object storage (read from there by writeZip).
  const sourceOf = (key: string) => uploads.localFile(key) ?? key;
  const files = await Promise.all(
    attachments.map(async (a) => {
      const key = a.previewKey ?? keys.get(a.id) ?? null;
      const stat = key ? await uploads.stat(key).catch(() => undefined) : undefined;
      if (!key || !stat) {
        if (key || keys.has(a.id))
          ctx.logger.warn({ attachmentId: a.id }, "no preview for the web-size ZIP; the photo goes in as itself");
        return {
          file: sourceOf(a.storageKey),
          size: a.size,
          originalName: a.originalName,
          mimeType: a.mimeType,
        };
      }
      return {
        file: sourceOf(key),
        size: stat.size,
        originalName: webSizeNameOf(a.originalName),
        mimeType: "image/jpeg",
      };
    }),
  );
  const names = zipEntryNames(files);
  const sources = files.map((f, i) => ({
    file: f.file,
    name: names[i],
    size: f.size,
    date: new Date(attachments[i].createdAt),
  }));
  const rendered = attachments.filter((a) => !a.previewKey).length;
  return { sources, work: rendered * RENDER_WORK + sources.reduce((sum, s) => sum + s.size, 0) };
}

/** Renders the previews the photos lack, a few at a time; answers each one's key (null: cannot be rendered). */
async function renderMissingPreviews(
  ctx: AppContext,
  attachments: PublishableAttachment[],
  { signal, onWork }: { signal: AbortSignal; onWork: (work: number) => void },
): Promise<Map<number, string | null>> {
  const missing = attachments.filter((a) => !a.previewKey);
  const keys = new Map<number, string | null>();
  let next = 0;
  let stopped = false;
  const worker = async () => {
    while (!stopped && next < missing.length) {
      signal.throwIfAborted();
      const a = missing[next++];
      keys.set(a.id, await renditionKeyOf(ctx, "preview", { id: a.id, thumbnailKey: null, previewKey: null }));
      onWork(RENDER_WORK);
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.min(RENDERS_AT_ONCE, missing.length) }, worker));
  } finally {
    stopped = true;
  }
  return keys;
}
