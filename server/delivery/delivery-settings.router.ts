import { Router } from "express";
import type { AppContext } from "../context";
import { parseBody, parseId } from "../http/validate";
import { deliverySettingsSchema } from "./delivery.schema";
import { regenerateLink, updateSettings } from "./delivery.service";
import { currentUser } from "../http/authenticate";
import { noteLinkRegenerated } from "../activity/delivery-hooks";

/** /api/projects/:id/delivery (mounted at /api/projects for approved users, before the projects router). */
export function deliverySettingsRouter(ctx: AppContext): Router {
  const router = Router();

  router.put("/:id/delivery", async (req, res) => {
    const id = parseId(req.params.id);
    res.json(await updateSettings(ctx, id, parseBody(deliverySettingsSchema, req.body)));
  });

  router.post("/:id/delivery/regenerate", async (req, res) => {
    const project = await regenerateLink(ctx, parseId(req.params.id));
    noteLinkRegenerated(ctx, project.id, currentUser(req));
    res.json(project);
  });

  return router;
}
