import { Router } from "express";
import type { AppContext } from "../context";

/** /api/projects/:id/publish and /download (mounted at /api/projects, before the projects router). */
export function publishRouter(_ctx: AppContext): Router {
  const router = Router();
  return router;
}
