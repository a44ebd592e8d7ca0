import type { Db } from "../db/database";
import { nowIso } from "../db/database";

export async function insertResetToken(db: Db, token: { uid: string; hash: string; expiresAt: string }): Promise<void> {
  await db("password_reset_tokens").insert({
    user_uid: token.uid,
    token_hash: token.hash,
    expires_at: token.expiresAt,
    created_at: nowIso(),
  });
}

/** Marks an unused, unexpired token as used and answers its user; undefined for anything else. Works once. */
export async function consumeResetToken(db: Db, hash: string): Promise<string | undefined> {
  const now = nowIso();
  const row = await db("password_reset_tokens")
    .where({ token_hash: hash })
    .whereNull("used_at")
    .where("expires_at", ">", now)
    .first();
  if (!row) return undefined;
  const claimed = await db("password_reset_tokens").where({ id: row.id }).whereNull("used_at").update({ used_at: now });
  return claimed === 1 ? (row.user_uid as string) : undefined;
}

/** Once a password changes, no older link may change it again. */
export async function invalidateUserResetTokens(db: Db, uid: string): Promise<void> {
  await db("password_reset_tokens").where({ user_uid: uid }).whereNull("used_at").update({ used_at: nowIso() });
}
