import { Router } from "express";
import type { AppContext } from "../context";
import { dashboardStats } from "./dashboard.service";

/** /api/dashboard */
export function dashboardRouter(ctx: AppContext): Router {
  const router = Router();
  router.get("/stats", async (_req, res) => {
    res.json(await dashboardStats(ctx));
  });
  return router;
}
