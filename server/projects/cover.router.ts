import { Router } from "express";
import type { AppContext } from "../context";
import { parseBody, parseId } from "../http/validate";
import { sendVersioned, versionedOf } from "../http/record-version";
import { coverSchema } from "./projects.schema";
import { setCover } from "./projects.service";

/** PUT /api/projects/:id/cover `{attachmentId}`: the delivery page's cover photo (null: the first photo). */
export function coverRouter(ctx: AppContext): Router {
  const router = Router();
  router.put("/:id/cover", async (req, res) => {
    const id = parseId(req.params.id);
    const { attachmentId } = parseBody(coverSchema, req.body);
    sendVersioned(res, versionedOf(await setCover(ctx, id, attachmentId)));
  });
  return router;
}
