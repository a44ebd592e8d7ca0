import type { Db } from "../db/database";
import { nowIso } from "../db/database";

export interface NewRefreshToken {
  uid: string;
  family: string;
  hash: string;
  expiresAt: string;
}

export type RotationOutcome =
  { outcome: "rotated"; uid: string } | { outcome: "reused"; uid: string; family: string } | { outcome: "invalid" };

export async function insertRefreshToken(db: Db, token: NewRefreshToken): Promise<void> {
  await db("refresh_tokens").insert({
    user_uid: token.uid,
    token_hash: token.hash,
    family: token.family,
    expires_at: token.expiresAt,
    created_at: nowIso(),
  });
}

/**
 * Swaps a live token for its successor in one transaction. A token that was already rotated or
 * revoked is being replayed, so its whole family dies: whoever holds the newest one must sign in again.
 * Two refreshes racing with the same token cannot both win: only one update finds it unrevoked.
 */
export async function rotateRefreshToken(
  db: Db,
  hash: string,
  next: Omit<NewRefreshToken, "uid" | "family">,
): Promise<RotationOutcome> {
  return db.transaction(async (trx) => {
    const row = await trx("refresh_tokens").where({ token_hash: hash }).first();
    if (!row) return { outcome: "invalid" };
    const now = nowIso();
    const replayed = async (): Promise<RotationOutcome> => {
      await trx("refresh_tokens").where({ family: row.family }).whereNull("revoked_at").update({ revoked_at: now });
      return { outcome: "reused", uid: row.user_uid, family: row.family };
    };
    if (row.revoked_at) return replayed();
    if (new Date(row.expires_at).getTime() <= Date.now()) return { outcome: "invalid" };
    const claimed = await trx("refresh_tokens")
      .where({ id: row.id })
      .whereNull("revoked_at")
      .update({ revoked_at: now });
    if (claimed === 0) return replayed();
    await insertRefreshToken(trx, { uid: row.user_uid, family: row.family, ...next });
    return { outcome: "rotated", uid: row.user_uid };
  });
}

export async function revokeRefreshToken(db: Db, hash: string): Promise<void> {
  await db("refresh_tokens").where({ token_hash: hash }).whereNull("revoked_at").update({ revoked_at: nowIso() });
}

export async function revokeUserRefreshTokens(db: Db, uid: string): Promise<void> {
  await db("refresh_tokens").where({ user_uid: uid }).whereNull("revoked_at").update({ revoked_at: nowIso() });
}

/** Expired rows no longer matter for replay detection: a replayed expired token is refused anyway. */
export async function deleteExpiredRefreshTokens(db: Db, uid: string): Promise<void> {
  await db("refresh_tokens").where({ user_uid: uid }).where("expires_at", "<", nowIso()).delete();
}
