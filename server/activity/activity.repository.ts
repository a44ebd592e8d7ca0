import type { Knex } from "knex";
import type { Db } from "../db/database";
import type { DeliveryActivity, DeliveryActivityType, DownloadSize } from "../../api/types";

/** What an activity row holds beyond its type: who did it, whom it concerned, what. */
export interface ActivityDetails {
  by?: string | null;
  recipients?: string[];
  failed?: string[];
  photo?: string;
  /** The size a ZIP or photo download was. */
  size?: DownloadSize;
  unused?: boolean;
}

interface ActivityRow {
  id: number;
  project_id: number;
  type: DeliveryActivityType;
  group_key: string | null;
  count: number | string;
  actor: string | null;
  data: string | null;
  occurred_at: string;
}

function toActivity(row: ActivityRow): DeliveryActivity {
  const data = (row.data ? JSON.parse(row.data) : {}) as Omit<ActivityDetails, "by">;
  return {
    id: row.id,
    projectId: row.project_id,
    type: row.type,
    at: row.occurred_at,
    day: row.group_key ? row.group_key.slice(row.group_key.indexOf(":") + 1) : null,
    count: Number(row.count),
    by: row.actor,
    recipients: data.recipients ?? [],
    failed: data.failed ?? [],
    photo: data.photo ?? null,
    size: data.size ?? null,
    unused: data.unused ?? false,
  };
}

function dataOf(details: ActivityDetails): string | null {
  const { by: _by, ...data } = details;
  return Object.keys(data).length > 0 ? JSON.stringify(data) : null;
}

/** A row of its own. */
export async function insertActivity(
  db: Db | Knex.Transaction,
  projectId: number,
  type: DeliveryActivityType,
  details: ActivityDetails,
  at: string,
): Promise<void> {
  await db("delivery_activity").insert({
    project_id: projectId,
    type,
    actor: details.by ?? null,
    data: dataOf(details),
    created_at: at,
    occurred_at: at,
  });
}

/**
 * One more in the project's counted row for `groupKey` (views of a day, say), created at the
 * first: one atomic upsert, so concurrent requests and processes never lose a count.
 */
export async function countInGroup(
  db: Db,
  projectId: number,
  type: DeliveryActivityType,
  groupKey: string,
  at: string,
): Promise<void> {
  await db("delivery_activity")
    .insert({ project_id: projectId, type, group_key: groupKey, count: 1, created_at: at, occurred_at: at })
    .onConflict(["project_id", "group_key"])
    .merge({ count: db.raw("delivery_activity.count + 1"), occurred_at: at });
}

/** A page of the project's activity, newest first, and how many rows it has in all. */
export async function listActivity(
  db: Db,
  projectId: number,
  range: { offset: number; limit: number },
): Promise<{ rows: DeliveryActivity[]; total: number }> {
  const counted = await db("delivery_activity").where({ project_id: projectId }).count({ n: "*" }).first();
  const query = db("delivery_activity")
    .where({ project_id: projectId })
    .orderBy([
      { column: "occurred_at", order: "desc" },
      { column: "id", order: "desc" },
    ])
    .offset(range.offset)
    .select("id", "project_id", "type", "group_key", "count", "actor", "data", "occurred_at");
  if (range.limit >= 0) query.limit(range.limit);
  const rows = (await query) as ActivityRow[];
  return { rows: rows.map(toActivity), total: Number(counted?.n ?? 0) };
}

export async function projectExists(db: Db, projectId: number): Promise<boolean> {
  return (await db("projects").where({ id: projectId }).first("id")) !== undefined;
}
