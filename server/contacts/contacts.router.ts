import { Router } from "express";
import type { AppContext } from "../context";

/** /api/contacts */
export function contactsRouter(_ctx: AppContext): Router {
  const router = Router();
  return router;
}
