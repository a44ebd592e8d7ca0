import type { AppContext } from "../context";
import { NotFoundError } from "../http/errors";
import { webSizeZipKey } from "../storage/published-zips";
import { storesOf } from "../storage/stores";
import type { DeliveryLink } from "./delivery.repository";
import type { ZipStat } from "./delivery.service";
import type { GalleryDownloads } from "./download-links-html";

/**
 * What a delivery link lets its client download (the 'Delivery' card's switches). A view-only
 * link answers no original, no web size and no ZIP: 404, as for a file that is not there.
 */
export type DownloadKind = "original" | "webSize";

export function mayDownload(link: Pick<DeliveryLink, "allowDownloads" | "offerWebSize">, kind: DownloadKind): boolean {
  return link.allowDownloads && (kind === "original" || link.offerWebSize);
}

/** A 404 (as for a file that is not there) that a browser is told about in words: the studio offers no download. */
export class DownloadsOffError extends NotFoundError {}

export function requireDownload(link: DeliveryLink, kind: DownloadKind): void {
  if (!mayDownload(link, kind)) throw new DownloadsOffError();
}

const webZipStats = new WeakMap<DeliveryLink, ZipStat | null>();

/**
 * The web-size ZIP's size and time, read once per link; undefined when the project has none
 * (web size was turned on after it was published: the ZIP comes with the next publish).
 */
export async function webSizeZipStatOf(ctx: AppContext, link: DeliveryLink): Promise<ZipStat | undefined> {
  const kept = webZipStats.get(link);
  if (kept !== undefined) return kept ?? undefined;
  const stat = await storesOf(ctx.config)
    .published.stat(webSizeZipKey(link.zipPath))
    .catch(() => undefined);
  const zip = stat ? { size: stat.size, mtime: stat.mtime } : null;
  webZipStats.set(link, zip);
  return zip ?? undefined;
}

/** What the gallery offers this link's client. */
export async function galleryDownloads(ctx: AppContext, link: DeliveryLink): Promise<GalleryDownloads> {
  const webSize = mayDownload(link, "webSize");
  return {
    originals: mayDownload(link, "original"),
    webSize,
    webZipSize: webSize ? (await webSizeZipStatOf(ctx, link))?.size : undefined,
  };
}
