import { Router } from "express";
import type { AppContext } from "../context";
import { parseId } from "../http/validate";
import { favouriteSelection, favouriteVisitors } from "./favourites.service";

/** /api/projects/:id/favourites: the studio's view of the lists (mounted at /api/projects for approved users). */
export function studioFavouritesRouter(ctx: AppContext): Router {
  const router = Router();

  router.get("/:id/favourites", async (req, res) => {
    const visitors = await favouriteVisitors(ctx, parseId(req.params.id));
    res.set("X-Total-Count", String(visitors.length)).json(visitors);
  });

  router.get("/:id/favourites/:visitorId", async (req, res) => {
    const id = parseId(req.params.id);
    res.json(await favouriteSelection(ctx, id, parseId(req.params.visitorId, "visitorId")));
  });

  return router;
}
