import { Router } from "express";
import type { AppContext } from "../context";
import { parseBody, parseId } from "../http/validate";
import { createWebhookSchema, updateWebhookSchema } from "./webhooks.schema";
import * as service from "./webhooks.service";
import { keepSubscribedTypes } from "./subscribers";

/** /api/webhooks (admins): endpoints, their test event, their attempts and 'Send again'. */
export function webhooksRouter(ctx: AppContext): Router {
  // The process's app is made once: from now on it knows which events have subscribers.
  keepSubscribedTypes(ctx.db, ctx.events);
  const router = Router();
  router.get("/", async (_req, res) => {
    const webhooks = await service.listWebhooks(ctx);
    res.set("X-Total-Count", String(webhooks.length)).json(webhooks);
  });
  router.post("/", async (req, res) => {
    res.status(201).json(await service.createWebhook(ctx, parseBody(createWebhookSchema, req.body)));
  });
  router.get("/:id", async (req, res) => {
    res.json(await service.getWebhook(ctx, parseId(req.params.id)));
  });
  router.patch("/:id", async (req, res) => {
    const id = parseId(req.params.id);
    res.json(await service.updateWebhook(ctx, id, parseBody(updateWebhookSchema, req.body)));
  });
  router.delete("/:id", async (req, res) => {
    await service.deleteWebhook(ctx, parseId(req.params.id));
    res.status(204).end();
  });
  router.post("/:id/test", async (req, res) => {
    res.status(202).json(await service.sendTestEvent(ctx, parseId(req.params.id)));
  });
  router.get("/:id/attempts", async (req, res) => {
    const attempts = await service.webhookAttempts(ctx, parseId(req.params.id));
    res.set("X-Total-Count", String(attempts.length)).json(attempts);
  });
  router.post("/:id/attempts/:attemptId/retry", async (req, res) => {
    await service.retryAttempt(ctx, parseId(req.params.id), parseId(req.params.attemptId, "attempt id"));
    res.status(202).json({ queued: true });
  });
  return router;
}
