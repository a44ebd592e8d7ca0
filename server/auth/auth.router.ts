import { Router } from "express";
import type { AppContext } from "../context";

/** Public identity calls under /api/auth (contract section 2). */
export function authRouter(_ctx: AppContext): Router {
  const router = Router();
  return router;
}
