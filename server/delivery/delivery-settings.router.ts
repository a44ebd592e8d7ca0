import { Router } from "express";
import type { AppContext } from "../context";
import { parseBody, parseId } from "../http/validate";
import { answerWrite, editOf, sendVersioned, versionedOf } from "../http/record-version";
import { getProject } from "../projects/projects.service";
import { deliverySettingsSchema } from "./delivery.schema";
import { regenerateLink, updateSettings } from "./delivery.service";
import { currentUser } from "../http/authenticate";
import { noteLinkRegenerated } from "../activity/delivery-hooks";

/** /api/projects/:id/delivery (mounted at /api/projects for approved users, before the projects router). */
export function deliverySettingsRouter(ctx: AppContext): Router {
  const router = Router();

  // The settings are the project's own fields: its version and ETag, its If-Match (412 with the project).
  router.put("/:id/delivery", async (req, res) => {
    const id = parseId(req.params.id);
    const edit = editOf(req, currentUser(req).uid);
    const input = parseBody(deliverySettingsSchema, req.body);
    await answerWrite(
      res,
      async () => versionedOf(await updateSettings(ctx, id, input, edit)),
      () => getProject(ctx, id),
    );
  });

  router.post("/:id/delivery/regenerate", async (req, res) => {
    const project = await regenerateLink(ctx, parseId(req.params.id));
    noteLinkRegenerated(ctx, project.id, currentUser(req));
    sendVersioned(res, versionedOf(project));
  });

  return router;
}
