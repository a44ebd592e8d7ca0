import express, { Router } from "express";
import type { AppContext } from "../context";
import { bodyTimeout } from "../http/body-timeout";
import { parseBody } from "../http/validate";
import { favouriteSchema, visitorSchema } from "./favourites.schema";
import { setVisitorCookie } from "./visitor-cookie";
import { favouriteAt, saveVisitor, submitSelection, unfavouriteAt, visitorFavourites } from "./favourites.service";

/**
 * /d/:token/favourites…: a delivery page's visitor and their own list, in JSON for the page's
 * script (mounted at /d before the delivery router). Every route answers as the photos do: 404,
 * 410, 401 without the passcode's cookie, and 429 past the link and address's budget.
 */
export function favouritesRouter(ctx: AppContext): Router {
  const router = Router();
  const json = express.json({ limit: "4kb" });

  router.use("/:token/favourites", bodyTimeout(ctx.config.bodyTimeoutSeconds), (_req, res, next) => {
    res.set({ "Cache-Control": "no-store", "X-Robots-Tag": "noindex" });
    next();
  });

  router.get("/:token/favourites", async (req, res) => {
    const { list, renew } = await visitorFavourites(ctx, req, req.params.token);
    if (renew) setVisitorCookie(req, res, renew.link, renew.key);
    res.json(list);
  });

  router.post("/:token/favourites/visitor", json, async (req, res) => {
    const contact = parseBody(visitorSchema, req.body);
    const saved = await saveVisitor(ctx, req, req.params.token, contact);
    if (saved.key) setVisitorCookie(req, res, saved.link, saved.key);
    res.status(saved.key ? 201 : 200).json({ visitor: saved.visitor });
  });

  router.post("/:token/favourites/submit", async (req, res) => {
    res.json(await submitSelection(ctx, req, req.params.token));
  });

  router.put("/:token/favourites/:n", json, async (req, res) => {
    const { comment } = parseBody(favouriteSchema, req.body ?? {});
    res.json(await favouriteAt(ctx, req, req.params.token, req.params.n, comment));
  });

  router.delete("/:token/favourites/:n", async (req, res) => {
    res.json(await unfavouriteAt(ctx, req, req.params.token, req.params.n));
  });

  return router;
}
