import type { IncomingHttpHeaders, IncomingMessage, OutgoingHttpHeaders, ServerResponse } from "node:http";
import type { DeliveryCache } from "./delivery-cache";
import type { DeliveryPhoto } from "./delivery.repository";
import { isExpired } from "./delivery.service";
import type { ThumbnailCache } from "./thumbnail-cache";

const THUMBNAIL_PATH = /^\/d\/([A-Za-z0-9_-]{22,64})\/t\/([1-9]\d{0,5})\/?$/;
/** Headers that make an answer other than the whole file (206, 304, 412, 416): the general path decides those. */
const CONDITIONS = ["range", "if-match", "if-none-match", "if-modified-since", "if-unmodified-since"] as const;

const conditional = (headers: IncomingHttpHeaders) => CONDITIONS.some((name) => headers[name] !== undefined);

export interface ReadyThumbnailsOptions {
  cache: DeliveryCache;
  thumbnails: ThumbnailCache;
  /** The thumbnail cache's name for a stored key. */
  fileOf: (key: string) => string;
  /** Headers every answer carries, by how the request arrived (a handful of distinct objects). */
  baseHeaders: (req: IncomingMessage) => Readonly<OutgoingHttpHeaders>;
  /** The headers of the whole thumbnail's 200, as the general path sends them. */
  headersOf: (photo: DeliveryPhoto, base: Readonly<OutgoingHttpHeaders>, size: number) => OutgoingHttpHeaders;
}

interface Made {
  data: Buffer;
  byBase: Map<Readonly<OutgoingHttpHeaders>, OutgoingHttpHeaders>;
}

/**
 * The answer a gallery asks for most, a thousand times a minute when it goes out: a whole thumbnail
 * to a GET without Range or conditions, of a link without a passcode whose photos and thumbnail are
 * in memory. Answered at once, with headers made once per photo and arrival: the same status,
 * headers and bytes the general path (`delivery-files.ts`) sends, without its promises and copies.
 * False (the general path answers) for anything else: a passcode, an expiry passed, a condition,
 * a link, photo list or thumbnail not in memory, or a bus that must first catch up with other
 * processes.
 */
export function readyThumbnails(options: ReadyThumbnailsOptions) {
  const made = new WeakMap<DeliveryPhoto, Made>();

  function headersFor(photo: DeliveryPhoto, base: Readonly<OutgoingHttpHeaders>, data: Buffer): OutgoingHttpHeaders {
    let entry = made.get(photo);
    if (entry?.data !== data) made.set(photo, (entry = { data, byBase: new Map() }));
    let headers = entry.byBase.get(base);
    if (!headers) entry.byBase.set(base, (headers = options.headersOf(photo, base, data.length)));
    return headers;
  }

  return (req: IncomingMessage, res: ServerResponse): boolean => {
    if (req.method !== "GET" || conditional(req.headers)) return false;
    const path = THUMBNAIL_PATH.exec(req.url ?? "");
    const kept = path && options.cache.peek(path[1]);
    if (!kept || kept.link.passcodeHash || isExpired(kept.link)) return false;
    const photo = kept.photos[Number(path[2]) - 1] as DeliveryPhoto | undefined;
    const data = photo?.thumbnailKey ? options.thumbnails.peek(options.fileOf(photo.thumbnailKey)) : undefined;
    if (!photo || !data) return false;
    res.writeHead(200, headersFor(photo, options.baseHeaders(req), data));
    res.end(data);
    return true;
  };
}
