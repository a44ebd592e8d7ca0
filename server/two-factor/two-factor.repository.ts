import type { Db } from "../db/database";
import { nowIso } from "../db/database";

interface TwoFactorRow {
  user_uid: string;
  secret_sealed: string;
  confirmed_at: string | Date | null;
  last_used_step: number | string | null;
}

export function findTwoFactor(db: Db, uid: string): Promise<TwoFactorRow | undefined> {
  return db<TwoFactorRow>("user_two_factor").where({ user_uid: uid }).first();
}

/** Whether the user signs in with a second step (enrolment confirmed). */
export async function hasTwoFactor(db: Db, uid: string): Promise<boolean> {
  const row = await db("user_two_factor").where({ user_uid: uid }).whereNotNull("confirmed_at").first("user_uid");
  return Boolean(row);
}

/** A pending enrolment, replacing an earlier pending one; false (nothing saved) when two-factor is on. */
export async function savePendingTwoFactor(db: Db, uid: string, sealed: string): Promise<boolean> {
  return db.transaction(async (trx) => {
    const existing = await trx("user_two_factor").where({ user_uid: uid }).first("confirmed_at");
    if (existing?.confirmed_at) return false;
    const row = { secret_sealed: sealed, last_used_step: null, created_at: nowIso() };
    if (existing) await trx("user_two_factor").where({ user_uid: uid }).update(row);
    else await trx("user_two_factor").insert({ user_uid: uid, ...row });
    return true;
  });
}

/**
 * Records `step` as the last code accepted, only if it comes after the last one: of two requests
 * with the same code, in one process or several, one wins. With `confirm`, turns a pending
 * enrolment on in the same update.
 */
export async function claimStep(db: Db, uid: string, step: number, { confirm = false } = {}): Promise<boolean> {
  const query = db("user_two_factor")
    .where({ user_uid: uid })
    .where((q) => q.whereNull("last_used_step").orWhere("last_used_step", "<", step));
  if (confirm) void query.whereNull("confirmed_at");
  else void query.whereNotNull("confirmed_at");
  const changed = await query.update({ last_used_step: step, ...(confirm && { confirmed_at: nowIso() }) });
  return changed === 1;
}

/** Turns two-factor off: the secret and every recovery code go. Answers whether it was there. */
export async function deleteTwoFactor(db: Db, uid: string): Promise<boolean> {
  return db.transaction(async (trx) => {
    await trx("recovery_codes").where({ user_uid: uid }).delete();
    await trx("two_factor_challenges").where({ user_uid: uid }).delete();
    return (await trx("user_two_factor").where({ user_uid: uid }).delete()) > 0;
  });
}

/** Replaces the user's recovery codes (the old ones end) with these hashes. */
export async function replaceRecoveryCodes(db: Db, uid: string, hashes: string[]): Promise<void> {
  await db.transaction(async (trx) => {
    await trx("recovery_codes").where({ user_uid: uid }).delete();
    const now = nowIso();
    await trx("recovery_codes").insert(hashes.map((code_hash) => ({ user_uid: uid, code_hash, created_at: now })));
  });
}

/** Spends one unused recovery code of the user; false when there is none with that hash. */
export async function spendRecoveryCode(db: Db, uid: string, hash: string): Promise<boolean> {
  const changed = await db("recovery_codes")
    .where({ user_uid: uid, code_hash: hash })
    .whereNull("used_at")
    .update({ used_at: nowIso() });
  return changed > 0;
}

export async function countUnusedRecoveryCodes(db: Db, uid: string): Promise<number> {
  const row = await db("recovery_codes").where({ user_uid: uid }).whereNull("used_at").count({ n: "*" }).first();
  return Number(row?.n ?? 0);
}

export async function insertChallenge(db: Db, uid: string, hash: string, expiresAt: string): Promise<void> {
  // Spent and expired challenges of the user go with each new one: the table holds only the live few.
  await db("two_factor_challenges")
    .where({ user_uid: uid })
    .where((q) => q.whereNotNull("used_at").orWhere("expires_at", "<", nowIso()))
    .delete();
  await db("two_factor_challenges").insert({
    user_uid: uid,
    challenge_hash: hash,
    expires_at: expiresAt,
    created_at: nowIso(),
  });
}

/** The user of a challenge still unused and within its life. */
export async function liveChallengeOwner(db: Db, hash: string): Promise<string | undefined> {
  const row = await db("two_factor_challenges").where({ challenge_hash: hash }).whereNull("used_at").first();
  if (!row || new Date(row.expires_at).getTime() <= Date.now()) return undefined;
  return row.user_uid as string;
}

/** Spends a challenge; of two requests racing with it, only one gets true. */
export async function spendChallenge(db: Db, hash: string): Promise<boolean> {
  const changed = await db("two_factor_challenges")
    .where({ challenge_hash: hash })
    .whereNull("used_at")
    .where("expires_at", ">", nowIso())
    .update({ used_at: nowIso() });
  return changed === 1;
}
