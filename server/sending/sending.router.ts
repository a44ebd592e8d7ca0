import { Router } from "express";
import type { AppContext } from "../context";
import { currentUser } from "../http/authenticate";
import { parseBody, parseId } from "../http/validate";
import { createMailer } from "../mail/mailer";
import { clientLinkOrigin } from "./client-link-origin";
import { sendSchema } from "./sending.schema";
import { sendingDraft, sendToClient } from "./sending.service";

/** /api/projects/:id/sending: the 'Send to client' dialog's defaults (GET) and the send (POST). */
export function sendingRouter(ctx: AppContext): Router {
  const router = Router();
  const mailer = createMailer(ctx.config.mail, ctx.logger);

  router.get("/:id/sending", async (req, res) => {
    res.json(await sendingDraft(ctx, parseId(req.params.id), clientLinkOrigin(req, ctx.config)));
  });

  router.post("/:id/sending", async (req, res) => {
    const id = parseId(req.params.id);
    const input = parseBody(sendSchema, req.body);
    res.json(await sendToClient(ctx, mailer, currentUser(req), id, input, clientLinkOrigin(req, ctx.config)));
  });

  return router;
}
