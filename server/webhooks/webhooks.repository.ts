import type { Db } from "../db/database";
import { nowIso, toIso } from "../db/database";
import type { Webhook, WebhookAttempt } from "../../api/types";

type Row = Record<string, unknown>;

const toWebhook = (row: Row): Webhook => ({
  id: row.id as number,
  url: row.url as string,
  events: JSON.parse(row.events as string) as string[],
  description: (row.description as string | null) ?? null,
  active: Boolean(row.active),
  createdAt: toIso(row.created_at)!,
  updatedAt: toIso(row.updated_at)!,
});

const COLUMNS = ["id", "url", "events", "description", "active", "created_at", "updated_at"];

export async function listWebhooks(db: Db): Promise<Webhook[]> {
  return (await db("webhook_endpoints").orderBy("id").select(COLUMNS)).map(toWebhook);
}

export async function findWebhook(db: Db, id: number): Promise<Webhook | undefined> {
  const row = await db("webhook_endpoints").where({ id }).first(COLUMNS);
  return row ? toWebhook(row) : undefined;
}

export async function insertWebhook(
  db: Db,
  values: { url: string; events: string[]; description: string | null; secret: string },
): Promise<number> {
  const now = nowIso();
  const [row] = await db("webhook_endpoints").insert(
    {
      url: values.url,
      events: JSON.stringify(values.events),
      description: values.description,
      active: true,
      secret: values.secret,
      created_at: now,
      updated_at: now,
    },
    ["id"],
  );
  return typeof row === "object" ? (row as { id: number }).id : (row as number);
}

export async function updateWebhook(
  db: Db,
  id: number,
  values: { url?: string; events?: string[]; description?: string | null; active?: boolean; secret?: string },
): Promise<boolean> {
  const changed = await db("webhook_endpoints")
    .where({ id })
    .update({
      ...(values.url !== undefined && { url: values.url }),
      ...(values.events !== undefined && { events: JSON.stringify(values.events) }),
      ...(values.description !== undefined && { description: values.description }),
      ...(values.active !== undefined && { active: values.active }),
      // Turned on again: its failures start over.
      ...(values.active === true && { failing_since: null }),
      ...(values.secret !== undefined && { secret: values.secret }),
      updated_at: nowIso(),
    });
  return changed > 0;
}

export async function deleteWebhook(db: Db, id: number): Promise<boolean> {
  return (await db("webhook_endpoints").where({ id }).delete()) > 0;
}

/** The endpoint's last 100 attempts, the latest first. */
export async function listAttempts(db: Db, endpointId: number): Promise<WebhookAttempt[]> {
  const rows = await db("webhook_attempts as a")
    .join("webhook_deliveries as d", "d.id", "a.delivery_id")
    .join("webhook_events as e", "e.id", "d.event_id")
    .where("a.endpoint_id", endpointId)
    .orderBy("a.id", "desc")
    .limit(100)
    .select("a.*", "e.uid as event_uid");
  return rows.map((r: Row) => ({
    id: r.id as number,
    attemptedAt: toIso(r.attempted_at)!,
    eventType: r.event_type as string,
    eventId: r.event_uid as string,
    status: (r.status as number | null) ?? null,
    ok: r.status !== null && Number(r.status) >= 200 && Number(r.status) < 300,
    durationMs: Number(r.duration_ms),
    response: (r.response as string | null) ?? null,
  }));
}

/** 'Send again': the attempt's delivery is due now (unless an attempt of it is under way). */
export async function requeueAttempt(
  db: Db,
  endpointId: number,
  attemptId: number,
): Promise<"queued" | "busy" | undefined> {
  const attempt = await db("webhook_attempts").where({ id: attemptId, endpoint_id: endpointId }).first("delivery_id");
  if (!attempt) return undefined;
  const now = Date.now();
  const changed = await db("webhook_deliveries")
    .where({ id: attempt.delivery_id as number })
    .andWhere((q) => q.whereNull("lease_until").orWhere("lease_until", "<", now))
    .update({ status: "pending", next_attempt_at: now });
  return changed > 0 ? "queued" : "busy";
}
