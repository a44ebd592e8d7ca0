import type { IncomingMessage } from "node:http";
import parseRange from "range-parser";

/** What identifies one version of a file, known without reading it. */
export interface Validators {
  /** A quoted ETag, weak (`W/"…"`) or strong. */
  etag: string;
  /** An HTTP date, when the file's time is known. */
  lastModified?: string;
}

const tokens = (list: string) =>
  list
    .split(",")
    .map((t) => t.trim())
    .filter(Boolean);
const opaque = (etag: string) => (etag.startsWith("W/") ? etag.slice(2) : etag);
const parseDate = (value: string | undefined) => (value ? Date.parse(value) : NaN);

/**
 * What a conditional request gets from the validators alone, as `send` (Express's file sender)
 * decides it: 412 when If-Match or If-Unmodified-Since fails, 304 when the client's copy is
 * current (If-None-Match, weak comparison; else If-Modified-Since), otherwise undefined (send it).
 */
export function conditionalAnswer(req: IncomingMessage, validators: Validators): 304 | 412 | undefined {
  const { headers } = req;
  const ifMatch = headers["if-match"];
  if (ifMatch) {
    if (ifMatch !== "*" && !tokens(ifMatch).some((t) => opaque(t) === opaque(validators.etag))) return 412;
  } else {
    const unmodifiedSince = parseDate(headers["if-unmodified-since"]);
    if (!isNaN(unmodifiedSince)) {
      const modified = parseDate(validators.lastModified);
      if (isNaN(modified) || modified > unmodifiedSince) return 412;
    }
  }
  const ifNoneMatch = headers["if-none-match"];
  const ifModifiedSince = headers["if-modified-since"];
  if (!ifNoneMatch && !ifModifiedSince) return undefined;
  // A client that asks the caches to check again expects the file itself.
  if (/(?:^|,)\s*no-cache\s*(?:,|$)/.test(headers["cache-control"] ?? "")) return undefined;
  if (ifNoneMatch) {
    const current = opaque(validators.etag);
    return ifNoneMatch.trim() === "*" || tokens(ifNoneMatch).some((t) => opaque(t) === current) ? 304 : undefined;
  }
  const modified = parseDate(validators.lastModified);
  return !isNaN(modified) && modified <= parseDate(ifModifiedSince) ? 304 : undefined;
}

/** The bytes to send of a `size`-byte file: [start, end] inclusive. */
export type Extent = { status: 200 | 206; start: number; end: number } | { status: 416 };

/**
 * The part of a `size`-byte file a request asks for, as `send` decides it: one range (overlaps
 * combined) is 206; several, a malformed header or an If-Range naming another version is the
 * whole file (200); a range wholly past the end is 416.
 */
export function requestedExtent(req: IncomingMessage, size: number, validators: Validators): Extent {
  const whole: Extent = { status: 200, start: 0, end: size - 1 };
  const header = req.headers.range;
  if (!header || !/^ *bytes=/.test(header)) return whole;
  if (!rangeStillApplies(req, validators)) return whole;
  const ranges = parseRange(size, header, { combine: true });
  if (ranges === -1) return { status: 416 };
  if (ranges === -2 || ranges.length !== 1) return whole;
  return { status: 206, start: ranges[0].start, end: ranges[0].end };
}

function rangeStillApplies(req: IncomingMessage, validators: Validators): boolean {
  const ifRange = req.headers["if-range"];
  if (typeof ifRange !== "string" || !ifRange) return true;
  if (ifRange.includes('"')) return ifRange.includes(validators.etag);
  return parseDate(validators.lastModified) <= parseDate(ifRange);
}
