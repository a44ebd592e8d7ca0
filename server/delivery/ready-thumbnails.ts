import type { IncomingHttpHeaders, IncomingMessage, OutgoingHttpHeaders, ServerResponse } from "node:http";
import type { DeliveryCache } from "./delivery-cache";
import type { DeliveryPhoto } from "./delivery.repository";
import { isExpired } from "./delivery.service";
import { conditionalAnswer } from "../http/conditional-get";
import { wholeEntityHeaders, type Entity, type ProxyBody } from "../http/entity-response";

const THUMBNAIL_PATH = /^\/d\/([A-Za-z0-9_-]{22,64})\/t\/([1-9]\d{0,5})\/?$/;
/** A range or a precondition (206, 412, 416): the general path answers those. A revalidation is answered here. */
const RANGE_OR_PRECONDITION = ["range", "if-match", "if-unmodified-since"] as const;

const rangeOrPrecondition = (headers: IncomingHttpHeaders) =>
  RANGE_OR_PRECONDITION.some((name) => headers[name] !== undefined);
const revalidation = (headers: IncomingHttpHeaders) =>
  headers["if-none-match"] !== undefined || headers["if-modified-since"] !== undefined;

/** A thumbnail at hand: its bytes in memory, or its file, known to be there, for the proxy to send. */
export type ReadyBody = Buffer | ProxyBody;

export interface ReadyThumbnailsOptions {
  cache: DeliveryCache;
  /** The photo's thumbnail if it is at hand, the same object while it stays so; otherwise undefined. */
  bodyOf: (photo: DeliveryPhoto) => ReadyBody | undefined;
  /** Headers every answer carries, by how the request arrived (a handful of distinct objects). */
  baseHeaders: (req: IncomingMessage) => Readonly<OutgoingHttpHeaders>;
  /** What the general path answers the photo's thumbnail with (headers, ETag). */
  entityOf: (photo: DeliveryPhoto) => Entity;
}

type Answers = ReturnType<typeof wholeEntityHeaders>;

interface Made {
  entity: Entity;
  byBase: Map<Readonly<OutgoingHttpHeaders>, Answers>;
}

/**
 * The answer a gallery asks for most, thousands of times a minute when it goes out: a whole
 * thumbnail, or its 304 to a revalidation, to a GET without Range or preconditions, of a link
 * without a passcode whose photos are in memory and whose thumbnail is at hand (in memory, or with
 * SENDFILE_HEADER a file the proxy was handed before). Answered at once, with headers made once per
 * photo and arrival: the same status, headers and body the general path (`delivery-files.ts`)
 * sends, without its promises and copies. False (the general path answers) for anything else: a
 * passcode, an expiry passed, a range or precondition, a link, photo list or thumbnail not at hand,
 * or a bus that must first catch up with other processes.
 */
export function readyThumbnails(options: ReadyThumbnailsOptions) {
  // By photo (its name is in the headers), then by body (its size is): weakly both ways, so
  // neither a photo dropped from the delivery cache nor bytes dropped from the thumbnail cache stay.
  const made = new WeakMap<DeliveryPhoto, WeakMap<ReadyBody, Made>>();

  function madeFor(photo: DeliveryPhoto, body: ReadyBody): Made {
    let byBody = made.get(photo);
    if (!byBody) made.set(photo, (byBody = new WeakMap()));
    let entry = byBody.get(body);
    if (!entry) byBody.set(body, (entry = { entity: options.entityOf(photo), byBase: new Map() }));
    return entry;
  }

  function answersFor(entry: Made, base: Readonly<OutgoingHttpHeaders>, body: ReadyBody): Answers {
    let answers = entry.byBase.get(base);
    if (!answers) entry.byBase.set(base, (answers = wholeEntityHeaders(base, entry.entity, body)));
    return answers;
  }

  return (req: IncomingMessage, res: ServerResponse): boolean => {
    if (req.method !== "GET" || rangeOrPrecondition(req.headers)) return false;
    const path = THUMBNAIL_PATH.exec(req.url ?? "");
    const kept = path && options.cache.peek(path[1]);
    if (!kept || kept.link.passcodeHash || isExpired(kept.link)) return false;
    const photo = kept.photos[Number(path[2]) - 1] as DeliveryPhoto | undefined;
    const body = photo && options.bodyOf(photo);
    if (!photo || !body) return false;
    const entry = madeFor(photo, body);
    const answers = answersFor(entry, options.baseHeaders(req), body);
    if (revalidation(req.headers) && conditionalAnswer(req, entry.entity.validators) === 304) {
      res.writeHead(304, answers.notModified);
      res.end();
    } else {
      res.writeHead(200, answers.ok);
      res.end(Buffer.isBuffer(body) ? body : undefined);
    }
    return true;
  };
}
