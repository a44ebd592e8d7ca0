import { Router } from "express";
import type { AppContext } from "../context";

/** /api/users/me*: open to signed-in users without approval. */
export function meRouter(_ctx: AppContext): Router {
  const router = Router();
  return router;
}
