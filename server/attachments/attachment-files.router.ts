import { Router } from "express";
import type { AppContext } from "../context";

/** /api/attachments/:id/view|download|thumbnail: a signed link or a bearer token (mounted before authenticate). */
export function attachmentFilesRouter(_ctx: AppContext): Router {
  const router = Router();
  return router;
}
