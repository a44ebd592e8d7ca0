import type { IncomingHttpHeaders, IncomingMessage, OutgoingHttpHeaders, ServerResponse } from "node:http";
import type { DeliveryCache } from "./delivery-cache";
import type { DeliveryPhoto } from "./delivery.repository";
import { isExpired } from "./delivery.service";
import type { ProxyBody } from "../http/entity-response";

const THUMBNAIL_PATH = /^\/d\/([A-Za-z0-9_-]{22,64})\/t\/([1-9]\d{0,5})\/?$/;
/** Headers that make an answer other than the whole file (206, 304, 412, 416): the general path decides those. */
const CONDITIONS = ["range", "if-match", "if-none-match", "if-modified-since", "if-unmodified-since"] as const;

const conditional = (headers: IncomingHttpHeaders) => CONDITIONS.some((name) => headers[name] !== undefined);

/** A thumbnail at hand: its bytes in memory, or its file, known to be there, for the proxy to send. */
export type ReadyBody = Buffer | ProxyBody;

export interface ReadyThumbnailsOptions {
  cache: DeliveryCache;
  /** The photo's thumbnail if it is at hand, the same object while it stays so; otherwise undefined. */
  bodyOf: (photo: DeliveryPhoto) => ReadyBody | undefined;
  /** Headers every answer carries, by how the request arrived (a handful of distinct objects). */
  baseHeaders: (req: IncomingMessage) => Readonly<OutgoingHttpHeaders>;
  /** The headers of the thumbnail's 200, as the general path sends them. */
  headersOf: (photo: DeliveryPhoto, base: Readonly<OutgoingHttpHeaders>, body: ReadyBody) => OutgoingHttpHeaders;
}

interface Made {
  body: ReadyBody;
  byBase: Map<Readonly<OutgoingHttpHeaders>, OutgoingHttpHeaders>;
}

/**
 * The answer a gallery asks for most, a thousand times a minute when it goes out: a whole thumbnail
 * to a GET without Range or conditions, of a link without a passcode whose photos are in memory and
 * whose thumbnail is at hand (in memory, or with SENDFILE_HEADER a file the proxy was handed
 * before). Answered at once, with headers made once per photo and arrival: the same status,
 * headers and body the general path (`delivery-files.ts`) sends, without its promises and copies.
 * False (the general path answers) for anything else: a passcode, an expiry passed, a condition,
 * a link, photo list or thumbnail not at hand, or a bus that must first catch up with other
 * processes.
 */
export function readyThumbnails(options: ReadyThumbnailsOptions) {
  const made = new WeakMap<DeliveryPhoto, Made>();

  function headersFor(photo: DeliveryPhoto, base: Readonly<OutgoingHttpHeaders>, body: ReadyBody) {
    let entry = made.get(photo);
    if (entry?.body !== body) made.set(photo, (entry = { body, byBase: new Map() }));
    let headers = entry.byBase.get(base);
    if (!headers) entry.byBase.set(base, (headers = options.headersOf(photo, base, body)));
    return headers;
  }

  return (req: IncomingMessage, res: ServerResponse): boolean => {
    if (req.method !== "GET" || conditional(req.headers)) return false;
    const path = THUMBNAIL_PATH.exec(req.url ?? "");
    const kept = path && options.cache.peek(path[1]);
    if (!kept || kept.link.passcodeHash || isExpired(kept.link)) return false;
    const photo = kept.photos[Number(path[2]) - 1] as DeliveryPhoto | undefined;
    const body = photo && options.bodyOf(photo);
    if (!photo || !body) return false;
    res.writeHead(200, headersFor(photo, options.baseHeaders(req), body));
    res.end(Buffer.isBuffer(body) ? body : undefined);
    return true;
  };
}
