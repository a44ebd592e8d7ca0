import type { Db } from "../db/database";
import { nowIso } from "../db/database";

export interface NewRefreshToken {
  uid: string;
  family: string;
  hash: string;
  expiresAt: string;
}

export type RotationOutcome =
  | { outcome: "rotated"; uid: string; family: string }
  | { outcome: "repeated"; uid: string; family: string }
  | { outcome: "reused"; uid: string; family: string }
  | { outcome: "invalid" };

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
 * Within `graceMs` of its rotation, a token whose successor (`next.hash`) is still the family's
 * live one is answered with that successor instead ("repeated"): tabs of one browser that sent
 * the same cookie at once. Anything older, or replaced since, is a replay.
 */
export async function rotateRefreshToken(
  db: Db,
  hash: string,
  next: Omit<NewRefreshToken, "uid" | "family">,
  graceMs = 0,
): Promise<RotationOutcome> {
  return db.transaction(async (trx) => {
    let row = await trx("refresh_tokens").where({ token_hash: hash }).first();
    if (!row) return { outcome: "invalid" };
    const now = nowIso();
    const replacedAgain = async (): Promise<RotationOutcome> => {
      if (await isLiveSuccessor(trx, row, next.hash, graceMs))
        return { outcome: "repeated", uid: row.user_uid, family: row.family };
      await trx("refresh_tokens").where({ family: row.family }).whereNull("revoked_at").update({ revoked_at: now });
      return { outcome: "reused", uid: row.user_uid, family: row.family };
    };
    if (row.revoked_at) return replacedAgain();
    if (new Date(row.expires_at).getTime() <= Date.now()) return { outcome: "invalid" };
    const claimed = await trx("refresh_tokens")
      .where({ id: row.id })
      .whereNull("revoked_at")
      .update({ revoked_at: now });
    if (claimed === 0) {
      // Another transaction rotated it first (PostgreSQL's read committed): read what it left.
      row = await trx("refresh_tokens").where({ id: row.id }).first();
      return replacedAgain();
    }
    await insertRefreshToken(trx, { uid: row.user_uid, family: row.family, ...next });
    return { outcome: "rotated", uid: row.user_uid, family: row.family };
  });
}

/** Whether `row` was rotated less than `graceMs` ago into `successorHash`, which is still live. */
async function isLiveSuccessor(
  trx: Db,
  row: { family: string; revoked_at: string | Date | null },
  successorHash: string,
  graceMs: number,
): Promise<boolean> {
  if (graceMs <= 0 || !row.revoked_at || Date.now() - new Date(row.revoked_at).getTime() >= graceMs) return false;
  const successor = await trx("refresh_tokens")
    .where({ token_hash: successorHash, family: row.family })
    .whereNull("revoked_at")
    .first("expires_at");
  return Boolean(successor) && new Date(successor.expires_at).getTime() > Date.now();
}

/** The sign-in (family) and user of a refresh token, whatever its state. */
export async function familyOfRefreshToken(db: Db, hash: string): Promise<{ uid: string; family: string } | undefined> {
  const row = await db("refresh_tokens").where({ token_hash: hash }).first("user_uid", "family");
  return row && { uid: row.user_uid, family: row.family };
}

export async function revokeFamilyRefreshTokens(db: Db, family: string): Promise<void> {
  await db("refresh_tokens").where({ family }).whereNull("revoked_at").update({ revoked_at: nowIso() });
}

export async function revokeUserRefreshTokens(db: Db, uid: string): Promise<void> {
  await db("refresh_tokens").where({ user_uid: uid }).whereNull("revoked_at").update({ revoked_at: nowIso() });
}

/** Expired rows no longer matter for replay detection: a replayed expired token is refused anyway. */
export async function deleteExpiredRefreshTokens(db: Db, uid: string): Promise<void> {
  await db("refresh_tokens").where({ user_uid: uid }).where("expires_at", "<", nowIso()).delete();
}
