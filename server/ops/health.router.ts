import { Router } from "express";
import type { AppContext } from "../context";
import { VERSION } from "../version";
import { checkReadiness } from "./readiness";

/** Liveness and readiness for monitoring and orchestrators: no sign-in, cheap enough to poll every second. */
export function healthRouter(ctx: AppContext): Router {
  const router = Router();
  router.use(["/healthz", "/readyz"], (_req, res, next) => {
    res.set("Cache-Control", "no-store");
    next();
  });
  router.get("/healthz", (_req, res) => {
    res.json({ status: "ok", version: VERSION });
  });
  router.get("/readyz", async (_req, res) => {
    const { ready, checks, disk } = await checkReadiness(ctx);
    res.status(ready ? 200 : 503).json({ status: ready ? "ok" : "unavailable", checks, disk });
  });
  return router;
}
