import { Router } from "express";
import type { AppContext } from "../context";
import { z } from "zod";
import { parse, parseId } from "../http/validate";
import { downloadLocation, publishProject, unpublishProject } from "./publish.service";

/** `notifyRecipients`: mail the recipients who already have the link once the publish has finished. */
export const publishOptionsSchema = z.strictObject({ notifyRecipients: z.boolean().optional() });

/** /api/projects/:id/publish and /download (mounted at /api/projects, before the projects router). */
export function publishRouter(ctx: AppContext): Router {
  const router = Router();

  router.post("/:id/publish", async (req, res) => {
    const id = parseId(req.params.id);
    const options = parse(publishOptionsSchema, req.body ?? {});
    res.status(202).json(await publishProject(ctx, id, options));
  });

  router.delete("/:id/publish", async (req, res) => {
    res.json(await unpublishProject(ctx, parseId(req.params.id)));
  });

  router.get("/:id/download", async (req, res) => {
    res.redirect(302, await downloadLocation(ctx, parseId(req.params.id)));
  });

  return router;
}
