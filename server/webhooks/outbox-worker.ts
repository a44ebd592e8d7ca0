import crypto from "node:crypto";
import type { AppContext } from "../context";
import { nowIso } from "../db/database";
import { mailerOf } from "../mail/mailer";
import { approvedAdminEmails } from "../users/users.repository";
import { runPeriodically } from "../periodic-task";
import type { Resolve } from "./address-guard";
import { sendWebhook, type SendOutcome } from "./deliverer";
import { eventData } from "./event-data";
import { openSecret, signedHeaders } from "./signer";

/** The waits after each failed attempt (about 5 s, 1 min, 10 min, 1 h, 6 h, 24 h); after the last, failed. */
const RETRY_WAITS_MS = [5_000, 60_000, 600_000, 3_600_000, 21_600_000, 86_400_000];
/** An endpoint whose attempts have all failed for this long is turned off and the admins mailed. */
const DISABLE_AFTER_MS = 3 * 24 * 3_600_000;

interface WorkerOptions {
  pollMs: number;
  retryWaitsMs: readonly number[];
  disableAfterMs: number;
  timeoutMs: number;
  /** Deliveries claimed and sent at once by one process. */
  batch: number;
  /** How receivers' names are resolved (tests); the system's resolver when absent. */
  resolve?: Resolve;
}

const DEFAULTS: WorkerOptions = {
  pollMs: 1000,
  retryWaitsMs: RETRY_WAITS_MS,
  disableAfterMs: DISABLE_AFTER_MS,
  timeoutMs: 10_000,
  batch: 10,
};

type Row = Record<string, unknown>;

/** A claim outlives the longest attempt by this much; a process that died mid-send frees its claims after it. */
const LEASE_MARGIN_MS = 20_000;

/**
 * Claims due deliveries by a lease set with a conditional update: on PostgreSQL two processes
 * updating the same row wait for each other and the second finds the lease taken, so one sends.
 * A process that dies mid-attempt leaves a lease that runs out, and the delivery is sent again.
 */
async function claimDue(ctx: AppContext, options: WorkerOptions, token: string): Promise<number[]> {
  const now = Date.now();
  const due = (await ctx
    .db("webhook_deliveries as d")
    .join("webhook_endpoints as e", "e.id", "d.endpoint_id")
    .where("d.status", "pending")
    .andWhere("d.next_attempt_at", "<=", now)
    .andWhere((q) => q.whereNull("d.lease_until").orWhere("d.lease_until", "<", now))
    .andWhere("e.active", true)
    .orderBy("d.next_attempt_at")
    .limit(options.batch)
    .pluck("d.id")) as number[];
  const claimed: number[] = [];
  for (const id of due) {
    const changed = await ctx
      .db("webhook_deliveries")
      .where({ id, status: "pending" })
      .andWhere((q) => q.whereNull("lease_until").orWhere("lease_until", "<", now))
      .update({ lease_token: token, lease_until: now + options.timeoutMs + LEASE_MARGIN_MS });
    if (changed === 1) claimed.push(id);
  }
  return claimed;
}

/** The event's body, made at its first attempt and kept, so every retry sends the same bytes. */
async function bodyOf(ctx: AppContext, event: Row): Promise<string> {
  if (event.body) return event.body as string;
  const subject = JSON.parse(event.subject as string) as Record<string, string | number | boolean | null>;
  const data = await eventData(ctx, event.type as string, subject);
  const body = JSON.stringify({ type: event.type, timestamp: new Date(Number(event.created_at)).toISOString(), data });
  await ctx
    .db("webhook_events")
    .where({ id: event.id as number })
    .whereNull("body")
    .update({ body });
  return (
    await ctx
      .db("webhook_events")
      .where({ id: event.id as number })
      .first("body")
  ).body as string;
}

async function disableIfFailingTooLong(ctx: AppContext, endpoint: Row, options: WorkerOptions, now: number) {
  const since = Number(endpoint.failing_since ?? now);
  if (endpoint.failing_since === null)
    await ctx
      .db("webhook_endpoints")
      .where({ id: endpoint.id as number })
      .whereNull("failing_since")
      .update({ failing_since: now });
  if (now - since < options.disableAfterMs) return;
  const turnedOff = await ctx
    .db("webhook_endpoints")
    .where({ id: endpoint.id as number, active: true })
    .update({ active: false, updated_at: nowIso() });
  if (turnedOff !== 1) return;
  ctx.logger.warn({ webhookId: endpoint.id }, "webhook endpoint turned off after failing for days");
  const text = [
    `Every attempt to send webhooks to ${endpoint.url as string} has failed since ${new Date(since).toISOString()}.`,
    "",
    "The endpoint has been turned off. Fix the receiver, then turn it on again under Webhooks.",
    "",
  ].join("\n");
  for (const to of await approvedAdminEmails(ctx.db)) {
    await mailerOf(ctx)
      .send({ to, subject: "A webhook endpoint was turned off", text })
      .catch((err: Error) => ctx.logger.error({ to, err: err.message }, "webhook notice could not be mailed"));
  }
}

/** The attempt itself; a body or secret that cannot be made counts as a failed attempt, retried like any. */
async function signAndSend(ctx: AppContext, options: WorkerOptions, event: Row, endpoint: Row): Promise<SendOutcome> {
  let body: string;
  let headers: Record<string, string>;
  try {
    body = await bodyOf(ctx, event);
    const secret = await openSecret(ctx.db, endpoint.secret as string);
    headers = signedHeaders(secret, event.uid as string, Math.floor(Date.now() / 1000), body);
  } catch (err) {
    ctx.logger.error({ eventId: event.uid, err: (err as Error).message }, "a webhook could not be prepared");
    return { status: null, ok: false, durationMs: 0, response: "could not be prepared (see the server's log)" };
  }
  return sendWebhook(endpoint.url as string, headers, body, {
    allowPrivate: ctx.config.webhookAllowPrivate,
    timeoutMs: options.timeoutMs,
    resolve: options.resolve,
  });
}

async function deliver(ctx: AppContext, options: WorkerOptions, token: string, deliveryId: number) {
  const delivery = await ctx.db("webhook_deliveries").where({ id: deliveryId, lease_token: token }).first();
  if (!delivery) return;
  const [event, endpoint] = await Promise.all([
    ctx
      .db("webhook_events")
      .where({ id: delivery.event_id as number })
      .first(),
    ctx
      .db("webhook_endpoints")
      .where({ id: delivery.endpoint_id as number })
      .first(),
  ]);
  if (!event || !endpoint) return;
  const attemptedAt = nowIso();
  const outcome = await signAndSend(ctx, options, event, endpoint);
  const attempts = Number(delivery.attempts) + 1;
  const wait = options.retryWaitsMs[attempts - 1];
  const now = Date.now();
  await ctx.db.transaction(async (trx) => {
    await trx("webhook_attempts").insert({
      delivery_id: deliveryId,
      endpoint_id: endpoint.id,
      event_type: event.type,
      attempted_at: attemptedAt,
      status: outcome.status,
      duration_ms: outcome.durationMs,
      response: outcome.response,
    });
    await trx("webhook_deliveries")
      .where({ id: deliveryId, lease_token: token })
      .update({
        status: outcome.ok ? "delivered" : wait === undefined ? "failed" : "pending",
        attempts,
        next_attempt_at: outcome.ok || wait === undefined ? now : now + wait,
        lease_token: null,
        lease_until: null,
      });
  });
  if (outcome.ok) {
    if (endpoint.failing_since !== null)
      await ctx
        .db("webhook_endpoints")
        .where({ id: endpoint.id as number })
        .update({ failing_since: null });
  } else {
    await disableIfFailingTooLong(ctx, endpoint, options, now);
  }
}

/** Events are kept this long once every delivery of them has ended (their attempts go with them). */
const KEEP_EVENTS_MS = 30 * 24 * 3_600_000;
const PRUNE_EVERY_MS = 3_600_000;

/** Deletes events older than KEEP_EVENTS_MS with no delivery still pending; cascades to deliveries and attempts. */
export async function pruneOldEvents(ctx: AppContext, keepMs = KEEP_EVENTS_MS): Promise<number> {
  return ctx
    .db("webhook_events")
    .where("created_at", "<", Date.now() - keepMs)
    .whereNotExists((q) =>
      q
        .select(ctx.db.raw("1"))
        .from("webhook_deliveries as d")
        .whereRaw("d.event_id = webhook_events.id")
        .andWhere("d.status", "pending"),
    )
    .delete();
}

/** One pass: claims what is due and sends it, at once. Answers how many it sent. */
async function deliverDue(ctx: AppContext, options: WorkerOptions = DEFAULTS): Promise<number> {
  const token = crypto.randomUUID();
  const claimed = await claimDue(ctx, options, token);
  await Promise.all(
    claimed.map((id) =>
      deliver(ctx, options, token, id).catch((err: Error) =>
        ctx.logger.error({ deliveryId: id, err: err.message }, "a webhook delivery failed unexpectedly"),
      ),
    ),
  );
  return claimed.length;
}

/**
 * The outbox worker: every `pollMs`, sends the deliveries that are due (and again at once while a
 * pass finds a full batch). Answers the stop function, which resolves once a pass under way ended.
 */
export function startWebhookWorker(ctx: AppContext, overrides: Partial<WorkerOptions> = {}): () => Promise<void> {
  const options = { ...DEFAULTS, ...overrides };
  let running: Promise<void> = Promise.resolve();
  let stopped = false;
  const pass = async () => {
    while (!stopped && (await deliverDue(ctx, options)) >= options.batch);
  };
  const stop = runPeriodically(
    () => (running = pass()),
    options.pollMs,
    (err) => ctx.logger.error({ err: err.message }, "webhook outbox pass failed"),
  );
  const stopPruning = runPeriodically(
    () => pruneOldEvents(ctx).then(() => {}),
    PRUNE_EVERY_MS,
    (err) => ctx.logger.error({ err: err.message }, "old webhook events could not be deleted"),
  );
  return async () => {
    stopped = true;
    stop();
    stopPruning();
    await running.catch(() => {});
  };
}
