import { Router } from "express";
import type { AppContext } from "../context";

/** /api/attachments (bearer-authenticated). */
export function attachmentsRouter(_ctx: AppContext): Router {
  const router = Router();
  return router;
}
