import { Router } from "express";
import type { AppContext } from "../context";

/** /api/clients */
export function clientsRouter(_ctx: AppContext): Router {
  const router = Router();
  return router;
}
