import { Router } from "express";
import type { AppContext } from "../context";

/** /api/dashboard */
export function dashboardRouter(_ctx: AppContext): Router {
  const router = Router();
  return router;
}
