import crypto from "node:crypto";
import { Router } from "express";
import type { AppContext } from "../context";
import { bearerToken } from "../http/authenticate";
import { ForbiddenError, HttpError, NotFoundError } from "../http/errors";
import { appMetrics } from "./metrics";

function sameSecret(given: string, expected: string): boolean {
  const a = crypto.createHash("sha256").update(given).digest();
  const b = crypto.createHash("sha256").update(expected).digest();
  return crypto.timingSafeEqual(a, b);
}

/** GET /metrics in Prometheus text format; off (404) unless METRICS_TOKEN is set, then only with that bearer token. */
export function metricsRouter(ctx: AppContext): Router {
  const router = Router();
  const metrics = appMetrics(ctx);
  const expected = ctx.config.metricsToken;
  router.get("/metrics", async (req, res) => {
    if (!expected) throw new NotFoundError("Metrics are off: set METRICS_TOKEN to turn them on");
    const token = bearerToken(req);
    if (!token)
      throw new HttpError(401, "Authentication required", undefined, { "WWW-Authenticate": 'Bearer realm="metrics"' });
    if (!sameSecret(token, expected)) throw new ForbiddenError("Invalid metrics token");
    res.set("Cache-Control", "no-store");
    res.type(metrics.registry.contentType).send(await metrics.registry.metrics());
  });
  return router;
}
