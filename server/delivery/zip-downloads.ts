import type { IncomingMessage, ServerResponse } from "node:http";
import type { AppContext } from "../context";
import { countDownload, type DeliveryLink } from "./delivery.repository";
import { onDeliveredBytes } from "./delivered-bytes";
import { createTransferCoverage, type TransferCoverage } from "./transfer-coverage";
import { noteZipDownload } from "../activity/delivery-hooks";
import { announceActivity } from "../activity/activity.service";

const coverages = new WeakMap<AppContext, TransferCoverage>();
function coverageOf(ctx: AppContext): TransferCoverage {
  let coverage = coverages.get(ctx);
  if (!coverage) coverages.set(ctx, (coverage = createTransferCoverage()));
  return coverage;
}

/**
 * Counts a download when the bytes of the link's ZIP this downloader (the link, its address and
 * User-Agent) has been handed, over however many responses under either link, make up the whole
 * file (README, "How a download is counted"). The web-size ZIP is another file, whose bytes are
 * kept apart and whose whole transfer counts as a download too. Call before the response is written.
 */
export function countZipDownload(
  ctx: AppContext,
  req: IncomingMessage,
  res: ServerResponse,
  link: DeliveryLink,
  clientAddress: string,
  zip: "originals" | "webSize" = "originals",
): void {
  const file = zip === "webSize" ? `${link.zipPath}|web` : link.zipPath;
  const downloader = `${file}|${clientAddress}|${req.headers["user-agent"] ?? ""}`;
  onDeliveredBytes(res, (start, end, size) => {
    if (!coverageOf(ctx).record(downloader, size, start, end)) return;
    Promise.all([countDownload(ctx.db, link.projectId), noteZipDownload(ctx, req, link)]).then(
      () => announceActivity(ctx, link.projectId),
      (err: unknown) => ctx.logger.warn({ err, projectId: link.projectId }, "could not count a download"),
    );
  });
}
