import type { Db } from "../db/database";
import { nowIso, toIso } from "../db/database";

interface SessionRecord {
  id: string;
  uid: string;
  userAgent: string | null;
  address: string | null;
  createdAt: string;
  lastActiveAt: string;
}

interface SessionRow {
  id: string;
  user_uid: string;
  user_agent: string | null;
  address: string | null;
  created_at: string | Date;
  last_active_at: string | Date;
}

const toRecord = (row: SessionRow): SessionRecord => ({
  id: row.id,
  uid: row.user_uid,
  userAgent: row.user_agent,
  address: row.address,
  createdAt: toIso(row.created_at)!,
  lastActiveAt: toIso(row.last_active_at)!,
});

/** Inserts a new sign-in's session; the user's ended and run-out ones go (nothing reads them again). */
export async function insertSession(
  db: Db,
  session: { id: string; uid: string; userAgent: string | null; address: string | null; expiresAt: string },
): Promise<void> {
  const now = nowIso();
  await db("user_sessions")
    .where({ user_uid: session.uid })
    .where((q) => q.whereNotNull("ended_at").orWhere("expires_at", "<", now))
    .delete();
  await db("user_sessions").insert({
    id: session.id,
    user_uid: session.uid,
    user_agent: session.userAgent?.slice(0, 512) ?? null,
    address: session.address?.slice(0, 64) ?? null,
    created_at: now,
    last_active_at: now,
    expires_at: session.expiresAt,
  });
}

/** The user's sign-ins neither ended nor run out, most recently active first. */
export async function listLiveSessions(db: Db, uid: string): Promise<SessionRecord[]> {
  const rows = (await db("user_sessions")
    .where({ user_uid: uid })
    .whereNull("ended_at")
    .where("expires_at", ">", nowIso())
    .orderBy([
      { column: "last_active_at", order: "desc" },
      { column: "id", order: "asc" },
    ])) as SessionRow[];
  return rows.map(toRecord);
}

/** Whether the sign-in may still be used: not ended and not run out. */
export async function isSessionLive(db: Db, id: string): Promise<boolean> {
  const row = await db("user_sessions").where({ id }).whereNull("ended_at").first("expires_at");
  return Boolean(row) && new Date(row.expires_at).getTime() > Date.now();
}

/** Ends the user's sessions `ids` (none of another user's); answers the ids it ended. */
export async function endSessionRows(db: Db, uid: string, ids: string[] | "all"): Promise<string[]> {
  const live = db("user_sessions").where({ user_uid: uid }).whereNull("ended_at");
  if (ids !== "all") void live.whereIn("id", ids);
  const ended = (await live.clone().pluck("id")) as string[];
  if (ended.length === 0) return [];
  await db("user_sessions").whereIn("id", ended).whereNull("ended_at").update({ ended_at: nowIso() });
  await db("refresh_tokens").whereIn("family", ended).whereNull("revoked_at").update({ revoked_at: nowIso() });
  return ended;
}

/** After a refresh: the sign-in lives on to its new token's expiry. */
export async function extendSession(db: Db, id: string, expiresAt: string): Promise<void> {
  await db("user_sessions").where({ id }).update({ expires_at: expiresAt, last_active_at: nowIso() });
}

export async function noteSessionActivity(db: Db, id: string, at: string, address: string | null): Promise<void> {
  const change: Record<string, string> = { last_active_at: at };
  if (address) change.address = address.slice(0, 64);
  await db("user_sessions").where({ id }).whereNull("ended_at").update(change);
}
