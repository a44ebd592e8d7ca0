import crypto from "node:crypto";
import type { Db } from "../db/database";
import type { WebhookEventType } from "../../api/webhooks";
import { mayHaveSubscribers } from "./subscribers";

/** What the event is about: the record's ids (its data is read when first sent) and facts of the moment. */
export type EventSubject = Record<string, string | number | boolean | null>;

const subscribes = (events: string, type: string) => (JSON.parse(events) as string[]).includes(type);

/**
 * Writes an event to the outbox with one delivery per active endpoint subscribed to it, through
 * `db`: pass the transaction of the change that causes it, so the event commits (or not) with the
 * change. Nothing is written when no endpoint listens (nothing is read either while this process
 * knows none does: subscribers.ts). `dedupeKey` makes a second event with the
 * same key a no-op (a visitor's first view of the day). Sending is the outbox worker's.
 */
export async function recordWebhookEvent(
  db: Db,
  type: WebhookEventType,
  subject: EventSubject,
  options: RecordOptions = {},
): Promise<string | undefined> {
  if (!options.onlyEndpoint && !(await mayHaveSubscribers(db, type))) return undefined;
  if ((await targetsOf(db, type, options)).length === 0) return undefined;
  // Its own transaction (a savepoint inside the caller's): the event and its deliveries are written
  // together. An endpoint deleted meanwhile by another process fails the insert: once more, without it.
  const write = () =>
    db.transaction(async (trx) => writeEvent(trx, type, subject, options, await targetsOf(trx, type, options)));
  try {
    return await write();
  } catch {
    return write();
  }
}

interface RecordOptions {
  dedupeKey?: string;
  onlyEndpoint?: number;
}

/** The endpoints that get this event: the active ones subscribed to its type (or just `onlyEndpoint`). */
async function targetsOf(db: Db, type: WebhookEventType, options: RecordOptions): Promise<number[]> {
  if (options.onlyEndpoint) return [options.onlyEndpoint];
  const endpoints = await db("webhook_endpoints").where({ active: true }).select("id", "events");
  return endpoints.filter((e) => subscribes(e.events as string, type)).map((e) => e.id as number);
}

async function writeEvent(
  db: Db,
  type: WebhookEventType,
  subject: EventSubject,
  options: RecordOptions,
  targets: number[],
): Promise<string | undefined> {
  if (targets.length === 0) return undefined;
  const uid = `msg_${crypto.randomBytes(16).toString("hex")}`;
  const now = Date.now();
  // RETURNING answers no row when the dedupe key was taken (sqlite and PostgreSQL alike).
  const [inserted] = (await db("webhook_events")
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
    .ignore()) as Array<{ id: number }>;
  if (!inserted) return undefined;
  const eventId = inserted.id;
  await db("webhook_deliveries").insert(
    targets.map((endpointId) => ({
      event_id: eventId,
      endpoint_id: endpointId,
      status: "pending",
      attempts: 0,
      next_attempt_at: now,
    })),
  );
  return uid;
}
