import crypto from "node:crypto";
import type { Db } from "../db/database";
import type { WebhookEventType } from "./webhooks.schema";

/** What the event is about: the record's ids (its data is read when first sent) and facts of the moment. */
export type EventSubject = Record<string, string | number | boolean | null>;

const subscribes = (events: string, type: string) => (JSON.parse(events) as string[]).includes(type);

/**
 * Writes an event to the outbox with one delivery per active endpoint subscribed to it, through
 * `db`: pass the transaction of the change that causes it, so the event commits (or not) with the
 * change. Nothing is written when no endpoint listens. `dedupeKey` makes a second event with the
 * same key a no-op (a visitor's first view of the day). Sending is the outbox worker's.
 */
export async function recordWebhookEvent(
  db: Db,
  type: WebhookEventType,
  subject: EventSubject,
  options: { dedupeKey?: string; onlyEndpoint?: number } = {},
): Promise<string | undefined> {
  const endpoints = options.onlyEndpoint
    ? await db("webhook_endpoints").where({ id: options.onlyEndpoint }).select("id", "events")
    : await db("webhook_endpoints").where({ active: true }).select("id", "events");
  const targets = options.onlyEndpoint ? endpoints : endpoints.filter((e) => subscribes(e.events as string, type));
  if (targets.length === 0) return undefined;
  const uid = `msg_${crypto.randomBytes(16).toString("hex")}`;
  const now = Date.now();
  const inserted = await db("webhook_events")
    .insert(
      {
        uid,
        type,
        subject: JSON.stringify(subject),
        dedupe_key: options.dedupeKey ?? null,
        created_at: now,
      },
      ["id"],
    )
    .onConflict("dedupe_key")
    .ignore();
  const first = inserted[0] as { id: number } | number | undefined;
  const eventId = typeof first === "object" ? first.id : first;
  // A duplicate key inserts nothing (sqlite still answers the last rowid: check it is ours).
  if (!eventId || !(await db("webhook_events").where({ id: eventId, uid }).first("id"))) return undefined;
  await db("webhook_deliveries").insert(
    targets.map((e) => ({
      event_id: eventId,
      endpoint_id: e.id as number,
      status: "pending",
      attempts: 0,
      next_attempt_at: now,
    })),
  );
  return uid;
}
