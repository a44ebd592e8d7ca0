import type { IncomingMessage, ServerResponse } from "node:http";
import type { RequestHandler } from "express";
import type { AppContext } from "../context";
import { appMetrics } from "./metrics";
import { followRouteTemplate } from "./route-template";
import { uploadRefusalReason } from "./upload-refusals";

/** Probes polled every few seconds: logged at debug so they do not drown the log. */
const PROBES = new Set(["/healthz", "/readyz", "/metrics"]);
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
  const observe = responseObserver(ctx);
  return (req, res, next) => {
    observe(req, res, followRouteTemplate(req), () => req.user?.uid ?? null);
    next();
  };
}

/** The same observation for requests answered without Express, whose route is known in advance. */
export function responseObserver(ctx: AppContext) {
  const metrics = appMetrics(ctx);
  const slowMs = ctx.config.slowRequestMs;
  // The line's fields are fixed (below) and none can hold a secret, so the logger's redaction,
  // two thirds of a line's cost (4.4 µs of 6.6), is left out for it.
  const logger = ctx.logger.child({}, { redact: [] });
  return (
    req: IncomingMessage,
    res: ServerResponse,
    routeTemplate: () => string,
    userId: () => string | null = () => null,
  ): void => {
    const started = performance.now();
    res.once("close", () => {
      const ms = Math.round((performance.now() - started) * 10) / 10;
      const route = routeTemplate();
      const aborted = !res.writableFinished;
      const status = aborted ? "aborted" : String(res.statusCode);
      const labels = { method: req.method ?? "", route, status };
      metrics.httpRequests.inc(labels);
      metrics.httpDuration.observe(labels, ms / 1000);
      if (UPLOAD_ROUTES.has(route)) {
        const reason = uploadRefusalReason(aborted ? undefined : res.statusCode);
        if (reason) metrics.uploadRefusals.inc({ reason });
      }
      const line = {
        method: req.method,
        route,
        status: aborted ? null : res.statusCode,
        aborted,
        ms,
        userId: userId(),
      };
      if (ms > slowMs) logger.warn(line, "slow request");
      else if (PROBES.has(route)) logger.debug(line, "request");
      else logger.info(line, "request");
    });
  };
}
