import type { AppContext } from "../context";
import { ConflictError, NotFoundError, ValidationError } from "../http/errors";
import { recordWebhookEvent } from "./outbox";
import { newWebhookSecret, sealSecret } from "./signer";
import * as repo from "./webhooks.repository";
import type { Webhook, WebhookAttempt, WebhookWithSecret } from "../../api/types";
import { urlProblem, type CreateWebhookInput, type UpdateWebhookInput } from "./webhooks.schema";

const NOT_FOUND = "Webhook not found";

function checkUrl(ctx: AppContext, url: string | undefined) {
  const problem = url === undefined ? undefined : urlProblem(url, ctx.config.webhookAllowPrivate);
  if (problem) throw new ValidationError(problem, { url: problem });
}

export const listWebhooks = (ctx: AppContext): Promise<Webhook[]> => repo.listWebhooks(ctx.db);

export async function getWebhook(ctx: AppContext, id: number): Promise<Webhook> {
  const found = await repo.findWebhook(ctx.db, id);
  if (!found) throw new NotFoundError(NOT_FOUND);
  return found;
}

/** A new endpoint, with its secret answered this once (only an encrypted copy is kept). */
export async function createWebhook(ctx: AppContext, input: CreateWebhookInput): Promise<WebhookWithSecret> {
  checkUrl(ctx, input.url);
  const secret = newWebhookSecret();
  const id = await repo.insertWebhook(ctx.db, { ...input, secret: await sealSecret(ctx.db, secret) });
  ctx.events.resourceChanged({ resource: "webhooks", type: "created", ids: [id] });
  ctx.logger.info({ webhookId: id }, "webhook created");
  return { ...(await getWebhook(ctx, id)), secret };
}

/** Changes the fields given; with `rotateSecret` the new secret is answered this once. */
export async function updateWebhook(
  ctx: AppContext,
  id: number,
  input: UpdateWebhookInput,
): Promise<Webhook | WebhookWithSecret> {
  checkUrl(ctx, input.url);
  const secret = input.rotateSecret ? newWebhookSecret() : undefined;
  const { rotateSecret: _rotate, ...fields } = input;
  const sealed = secret ? await sealSecret(ctx.db, secret) : undefined;
  if (!(await repo.updateWebhook(ctx.db, id, { ...fields, secret: sealed }))) throw new NotFoundError(NOT_FOUND);
  ctx.events.resourceChanged({ resource: "webhooks", type: "updated", ids: [id] });
  if (secret) ctx.logger.info({ webhookId: id }, "webhook secret rotated");
  const webhook = await getWebhook(ctx, id);
  return secret ? { ...webhook, secret } : webhook;
}

export async function deleteWebhook(ctx: AppContext, id: number): Promise<void> {
  if (!(await repo.deleteWebhook(ctx.db, id))) throw new NotFoundError(NOT_FOUND);
  ctx.events.resourceChanged({ resource: "webhooks", type: "deleted", ids: [id] });
  ctx.logger.info({ webhookId: id }, "webhook deleted");
}

/** 'Send test event': a `webhook.test` to this endpoint alone, sent by the outbox worker. */
export async function sendTestEvent(ctx: AppContext, id: number): Promise<{ eventId: string }> {
  const webhook = await getWebhook(ctx, id);
  if (!webhook.active) throw new ConflictError("This webhook is turned off: turn it on to send it events");
  const eventId = await recordWebhookEvent(
    ctx.db,
    "webhook.test",
    { webhookId: id, url: webhook.url },
    { onlyEndpoint: id },
  );
  return { eventId: eventId! };
}

export async function webhookAttempts(ctx: AppContext, id: number): Promise<WebhookAttempt[]> {
  await getWebhook(ctx, id);
  return repo.listAttempts(ctx.reads, id);
}

/** 'Send again': the attempt's event goes to the endpoint once more, with the same webhook-id. */
export async function retryAttempt(ctx: AppContext, id: number, attemptId: number): Promise<void> {
  await getWebhook(ctx, id);
  const result = await repo.requeueAttempt(ctx.db, id, attemptId);
  if (!result) throw new NotFoundError("Attempt not found");
  if (result === "busy") throw new ConflictError("This event is being sent right now");
}
