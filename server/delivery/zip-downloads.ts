import { once } from "node:events";
import type { IncomingMessage, ServerResponse } from "node:http";
import parseRange from "range-parser";
import type { AppContext } from "../context";
import { countDownload, type DeliveryLink } from "./delivery.repository";
import { onDeliveredBytes } from "./delivered-bytes";
import { createTransferCoverage, type TransferCoverage } from "./transfer-coverage";
import { noteZipDownload } from "../activity/delivery-hooks";
import { announceActivity, inBackground } from "../activity/activity.service";
import { noteDeliveryDownloaded } from "../webhooks/delivery-events";

const coverages = new WeakMap<AppContext, TransferCoverage>();
function coverageOf(ctx: AppContext): TransferCoverage {
  let coverage = coverages.get(ctx);
  if (!coverage) coverages.set(ctx, (coverage = createTransferCoverage()));
  return coverage;
}

type ZipKind = "originals" | "webSize";

/** Records bytes [start, end) of the link's ZIP as delivered to this request's downloader; counts a download when that completes the file. */
function recordDelivered(
  ctx: AppContext,
  req: IncomingMessage,
  link: DeliveryLink,
  clientAddress: string,
  zip: ZipKind,
): (start: number, end: number, size: number) => void {
  const file = zip === "webSize" ? `${link.zipPath}|web` : link.zipPath;
  const downloader = `${file}|${clientAddress}|${req.headers["user-agent"] ?? ""}`;
  return (start, end, size) => {
    if (!coverageOf(ctx).record(downloader, size, start, end)) return;
    // Both in the background's count, so whoever waits for recordings (a stop, a test) sees the count too.
    const counted = inBackground(ctx, `a download of project ${link.projectId}`, () =>
      countDownload(ctx.db, link.projectId),
    );
    noteDeliveryDownloaded(ctx, link.projectId, zip === "webSize" ? "web" : "original");
    void Promise.all([counted, noteZipDownload(ctx, req, link, zip === "webSize" ? "web" : "original")]).then(() =>
      announceActivity(ctx, link.projectId),
    );
  };
}

/**
 * Counts a download when the bytes of the link's ZIP this downloader (the link, its address and
 * User-Agent) has been handed, over however many responses under either link, make up the whole
 * file (docs/gallery-and-sending.md, "How a download is counted"). The web-size ZIP is another file, whose bytes are
 * kept apart and whose whole transfer counts as a download too. Call before the response is written.
 */
export function countZipDownload(
  ctx: AppContext,
  req: IncomingMessage,
  res: ServerResponse,
  link: DeliveryLink,
  clientAddress: string,
  zip: ZipKind = "originals",
): void {
  onDeliveredBytes(res, recordDelivered(ctx, req, link, clientAddress, zip));
  // Its count comes when the response closes: until then it is under way, so whoever waits for recordings sees it.
  void inBackground(ctx, `a ZIP response of project ${link.projectId}`, () => once(res, "close"));
}

/**
 * The same count when the proxy in front sends the ZIP (SENDFILE_HEADER): the bytes this request
 * asks for count once they are handed to the proxy, since only the proxy sees them go out. A GET
 * with a validator may be answered 304 by the proxy and counts nothing; of a Range request, the
 * range counts, whatever an If-Range would make of it (so a count can come late, never early).
 */
export function countZipHandOver(
  ctx: AppContext,
  req: IncomingMessage,
  link: DeliveryLink,
  clientAddress: string,
  size: number,
  zip: ZipKind = "originals",
): void {
  const { headers } = req;
  if (req.method !== "GET" || headers["if-none-match"] || headers["if-modified-since"]) return;
  const extent = requestedRange(headers.range, size);
  if (extent) recordDelivered(ctx, req, link, clientAddress, zip)(extent.start, extent.end, size);
}

/** [start, end) of a `size`-byte file that a Range header asks for (the whole without one); undefined for several ranges or none satisfiable. */
function requestedRange(range: string | undefined, size: number): { start: number; end: number } | undefined {
  if (!range || !/^ *bytes=/.test(range)) return { start: 0, end: size };
  const ranges = parseRange(size, range, { combine: true });
  if (ranges === -2) return { start: 0, end: size };
  if (ranges === -1 || ranges.length !== 1) return undefined;
  return { start: ranges[0].start, end: ranges[0].end + 1 };
}
