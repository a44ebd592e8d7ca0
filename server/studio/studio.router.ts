import express, { Router, type Request, type Response } from "express";
import type { AppContext } from "../context";
import { currentUser, requireAdmin } from "../http/authenticate";
import { NotFoundError, PayloadTooLargeError } from "../http/errors";
import { sendStoredObject } from "../http/stored-object";
import { storesOf } from "../storage/stores";
import { parseBody } from "../http/validate";
import { answerWrite, editOf, sendVersioned, versionedOf } from "../http/record-version";
import { MAX_LOGO_BYTES } from "../storage/logo-files";
import { studioChangeSchema } from "./studio.schema";
import { STUDIO_RECORD, changeStudio, deleteLogo, getStudio, logoKeyOf, replaceLogo } from "./studio.service";

/**
 * /api/studio (approved users): the studio's branding, one record (`settings`), which every
 * signed-in staff member may read and only admins change; the logo is sent as the request's body
 * (the image's own bytes, any content type) and stored re-encoded.
 */
export function studioRouter(ctx: AppContext): Router {
  const router = Router();

  router.get(`/${STUDIO_RECORD}`, async (_req, res) => {
    sendVersioned(res, versionedOf(await getStudio(ctx)));
  });

  const update = async (req: Request, res: Response) => {
    const edit = editOf(req, currentUser(req).uid);
    const change = parseBody(studioChangeSchema, req.body);
    await answerWrite(
      res,
      async () => versionedOf(await changeStudio(ctx, change, edit)),
      async () => versionedOf(await getStudio(ctx)),
    );
  };
  router.put(`/${STUDIO_RECORD}`, requireAdmin, update);
  router.patch(`/${STUDIO_RECORD}`, requireAdmin, update);

  // Refused before the body is read when it says it is too large; `raw` stops one that lies.
  const tooLarge = (req: Request, _res: Response, next: () => void) => {
    if (Number(req.get("content-length") ?? 0) > MAX_LOGO_BYTES) throw new PayloadTooLargeError();
    next();
  };
  const logoBody = express.raw({ type: () => true, limit: MAX_LOGO_BYTES });
  router.put("/logo", requireAdmin, tooLarge, logoBody, async (req, res) => {
    const bytes = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
    sendVersioned(res, versionedOf(await replaceLogo(ctx, bytes)));
  });
  router.delete("/logo", requireAdmin, async (_req, res) => {
    sendVersioned(res, versionedOf(await deleteLogo(ctx)));
  });
  return router;
}

/** /d/logo/<name>.webp: the studio's logo, public (the delivery pages show it), under a name that changes with it. */
export function studioLogoRouter(ctx: AppContext): Router {
  const router = Router();
  router.get("/logo/:name", async (req, res) => {
    const key = logoKeyOf(req.params.name);
    if (!key) throw new NotFoundError();
    res.set({
      "Content-Type": "image/webp",
      "Cache-Control": "public, max-age=31536000, immutable",
      "X-Content-Type-Options": "nosniff",
      "Content-Disposition": "inline",
    });
    await sendStoredObject(req, res, storesOf(ctx.config).uploads, key);
  });
  return router;
}
