import { Router } from "express";
import type { AppContext } from "../context";

/** /published/<name>.zip: public delivery of published ZIPs. */
export function publishedRouter(_ctx: AppContext): Router {
  const router = Router();
  return router;
}
