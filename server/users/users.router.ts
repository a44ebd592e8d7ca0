import { Router } from "express";
import type { AppContext } from "../context";

/** /api/users: the admin-only approval resource. */
export function usersRouter(_ctx: AppContext): Router {
  const router = Router();
  return router;
}
