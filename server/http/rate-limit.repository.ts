import type { Db } from "../db/database";

/**
 * Counts one attempt in one statement (an atomic upsert, so concurrent processes never lose a
 * count): a key whose window has ended starts a new one at `now`. Answers the window's count so far
 * and when it ends (ms).
 */
export async function countAttempt(
  db: Db,
  keyHash: string,
  now: number,
  windowMs: number,
): Promise<{ count: number; resetAt: number }> {
  const result = await db.raw(
    `INSERT INTO rate_limit_windows (key_hash, count, reset_at) VALUES (?, 1, ?)
     ON CONFLICT (key_hash) DO UPDATE SET
       count = CASE WHEN rate_limit_windows.reset_at <= ? THEN 1 ELSE rate_limit_windows.count + 1 END,
       reset_at = CASE WHEN rate_limit_windows.reset_at <= ? THEN ? ELSE rate_limit_windows.reset_at END
     RETURNING count, reset_at`,
    [keyHash, now + windowMs, now, now, now + windowMs],
  );
  // pg answers {rows}, sqlite the rows themselves.
  const rows = (Array.isArray(result) ? result : result.rows) as Array<{
    count: number | string;
    reset_at: number | string;
  }>;
  return { count: Number(rows[0].count), resetAt: Number(rows[0].reset_at) };
}

export async function deleteEndedWindows(db: Db, now: number): Promise<void> {
  await db("rate_limit_windows").where("reset_at", "<=", now).delete();
}

export async function findWindow(db: Db, keyHash: string): Promise<{ count: number; resetAt: number } | undefined> {
  const row = await db("rate_limit_windows").where({ key_hash: keyHash }).first("count", "reset_at");
  return row && { count: Number(row.count), resetAt: Number(row.reset_at) };
}
