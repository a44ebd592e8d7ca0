import type { Db } from "../db/database";

/**
 * Counts one attempt in one statement (an atomic upsert, so concurrent processes never lose a
 * count): a key whose window has ended starts a new one at `now`. Answers the window's count so far,
 * this attempt included, and when it ends (ms). `scopeHash` names what the window belongs to, so
 * `deleteScope` can end it with the others of its scope.
 */
export async function countAttempt(
  db: Db,
  keyHash: string,
  now: number,
  windowMs: number,
  scopeHash: string | null = null,
): Promise<{ count: number; resetAt: number }> {
  const result = await db.raw(
    `INSERT INTO rate_limit_windows (key_hash, count, reset_at, scope_hash) VALUES (?, 1, ?, ?)
     ON CONFLICT (key_hash) DO UPDATE SET
       count = CASE WHEN rate_limit_windows.reset_at <= ? THEN 1 ELSE rate_limit_windows.count + 1 END,
       reset_at = CASE WHEN rate_limit_windows.reset_at <= ? THEN ? ELSE rate_limit_windows.reset_at END,
       scope_hash = excluded.scope_hash
     RETURNING count, reset_at`,
    [keyHash, now + windowMs, scopeHash, now, now, now + windowMs],
  );
  // pg answers {rows}, sqlite the rows themselves.
  const rows = (Array.isArray(result) ? result : result.rows) as Array<{
    count: number | string;
    reset_at: number | string;
  }>;
  return { count: Number(rows[0].count), resetAt: Number(rows[0].reset_at) };
}

/** Takes one attempt back from the key's current window (an attempt its budget does not charge). */
export async function uncountAttempt(db: Db, keyHash: string, now: number): Promise<void> {
  await db("rate_limit_windows")
    .where({ key_hash: keyHash })
    .andWhere("reset_at", ">", now)
    .andWhere("count", ">", 0)
    .decrement("count", 1);
}

export async function deleteEndedWindows(db: Db, now: number): Promise<void> {
  await db("rate_limit_windows").where("reset_at", "<=", now).delete();
}

export async function deleteScope(db: Db, scopeHash: string): Promise<void> {
  await db("rate_limit_windows").where({ scope_hash: scopeHash }).delete();
}

export async function findWindow(db: Db, keyHash: string): Promise<{ count: number; resetAt: number } | undefined> {
  const row = await db("rate_limit_windows").where({ key_hash: keyHash }).first("count", "reset_at");
  return row && { count: Number(row.count), resetAt: Number(row.reset_at) };
}
