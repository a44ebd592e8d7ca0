import { Router } from "express";
import type { AppContext } from "../context";
import { parseId } from "../http/validate";
import { downloadLocation, publishProject, unpublishProject } from "./publish.service";

/** /api/projects/:id/publish and /download (mounted at /api/projects, before the projects router). */
export function publishRouter(ctx: AppContext): Router {
  const router = Router();

  router.post("/:id/publish", async (req, res) => {
    res.status(202).json(await publishProject(ctx, parseId(req.params.id)));
  });

  router.delete("/:id/publish", async (req, res) => {
    res.json(await unpublishProject(ctx, parseId(req.params.id)));
  });

  router.get("/:id/download", async (req, res) => {
    res.redirect(302, await downloadLocation(ctx, parseId(req.params.id)));
  });

  return router;
}
