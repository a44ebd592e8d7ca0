import { Router } from "express";
import { NotFoundError } from "../http/errors";

/**
 * /published/<name>.zip: the public link of a published ZIP. GET and HEAD of it are answered
 * before Express, by the delivery files (`server/delivery/delivery-files.ts`), under the same
 * rules as its delivery page's `all.zip`; anything else under /published is a 404.
 */
export function publishedRouter(): Router {
  const router = Router();
  router.use(() => {
    throw new NotFoundError();
  });
  return router;
}
