import { Router } from "express";
import type { AppContext } from "../context";

/** /api/projects */
export function projectsRouter(_ctx: AppContext): Router {
  const router = Router();
  return router;
}
