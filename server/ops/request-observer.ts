import type { IncomingMessage, ServerResponse } from "node:http";
import type { RequestHandler } from "express";
import type { AppContext } from "../context";
import { appMetrics } from "./metrics";
import { followRouteTemplate } from "./route-template";
import { uploadRefusalReason } from "./upload-refusals";

/** Probes polled every few seconds: logged at debug so they do not drown the log. */
const PROBES = new Set(["/healthz", "/readyz", "/metrics"]);
/**
 * A gallery's thumbnails, dozens per visitor and thousands a minute when it goes out: answered,
 * they are logged at debug too (counted in the metrics all the same); a refusal stays at info.
 */
export const GALLERY_THUMBNAIL = "/d/:token/t/:n";
const quiet = (route: string, status: number | undefined) =>
  PROBES.has(route) || (route === GALLERY_THUMBNAIL && status !== undefined && status < 400);
const UPLOAD_ROUTES = new Set([
  "/api/attachments/projects/:id/upload",
  "/api/attachments/projects/:id/upload-multiple",
]);

/**
 * One log line and one metrics observation per request, when its answer has ended or its
 * connection closed. The line names the route template, never the URL: query strings carry
 * signed links and paths carry published ZIP names.
 */
export function observeRequests(ctx: AppContext): RequestHandler {
  const { observe } = responseObserver(ctx);
  return (req, res, next) => {
    observe(req, res, followRouteTemplate(req), () => req.user?.uid ?? null);
    next();
  };
}

/**
 * The same observation for requests answered without Express, whose route is known in advance:
 * `observe` waits for the answer to end, `answered` records one ended already (without a listener,
 * a tenth of a thumbnail answered from memory). The latter's bytes were handed to the socket, so
 * a client that then goes away is recorded with the status, not as aborted.
 */
export function responseObserver(ctx: AppContext) {
  const metrics = appMetrics(ctx);
  const slowMs = ctx.config.slowRequestMs;
  // The line's fields are fixed (below) and none can hold a secret, so the logger's redaction,
  // two thirds of a line's cost (4.4 µs of 6.6), is left out for it.
  const logger = ctx.logger.child({}, { redact: [] });

  /** `status` undefined: aborted. */
  function record(method: string, route: string, status: number | undefined, started: number, userId: string | null) {
    const ms = Math.round((performance.now() - started) * 10) / 10;
    metrics.http.seriesOf(method, route, status ?? "aborted").observe(ms / 1000);
    if (UPLOAD_ROUTES.has(route)) {
      const reason = uploadRefusalReason(status);
      if (reason) metrics.uploadRefusals.inc({ reason });
    }
    const level = ms > slowMs ? "warn" : quiet(route, status) ? "debug" : "info";
    // Most thumbnails' lines are not written at all: the line is only made for a level that is.
    if (!logger.isLevelEnabled(level)) return;
    const line = { method, route, status: status ?? null, aborted: status === undefined, ms, userId };
    logger[level](line, level === "warn" ? "slow request" : "request");
  }

  return {
    observe(
      req: IncomingMessage,
      res: ServerResponse,
      routeTemplate: () => string,
      userId: () => string | null = () => null,
    ): void {
      const started = performance.now();
      res.once("close", () => {
        const status = res.writableFinished ? res.statusCode : undefined;
        record(req.method ?? "", routeTemplate(), status, started, userId());
      });
    },
    answered(req: IncomingMessage, res: ServerResponse, route: string, started: number): void {
      record(req.method ?? "", route, res.statusCode, started, null);
    },
  };
}
