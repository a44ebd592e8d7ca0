import type { AppContext } from "../context";
import { ConflictError, NotFoundError, ValidationError } from "../http/errors";
import { verifyPassword } from "../auth/passwords";
import type { User } from "../../api/types";
import { findUserRow } from "../users/users.repository";
import { deleteUserPasskeys } from "../passkeys/passkeys.repository";
import type { MailRoute } from "../users/access-mail";
import { newRecoveryCodes, recoveryCodeHash } from "./recovery-codes";
import { twoFactorRequired } from "./require-two-factor";
import { openTotpSecret, sealTotpSecret } from "./secret-box";
import { newTotpSecret, otpauthUrlOf, stepOfCode } from "./totp";
import { mailRecoveryCodeUsed, mailTwoFactorReset } from "./two-factor-mail";
import {
  claimStep,
  countUnusedRecoveryCodes,
  deleteTwoFactor,
  findTwoFactor,
  hasTwoFactor,
  replaceRecoveryCodes,
  savePendingTwoFactor,
  spendRecoveryCode,
} from "./two-factor.repository";

export interface TwoFactorStatus {
  enabled: boolean;
  /** The studio requires it of everyone: until it is on, nothing but enrolment is allowed. */
  required: boolean;
  /** An enrolment was started and waits for its first right code. */
  pending: boolean;
  recoveryCodesLeft: number;
}

export async function twoFactorStatus(ctx: AppContext, uid: string): Promise<TwoFactorStatus> {
  const row = await findTwoFactor(ctx.db, uid);
  const enabled = Boolean(row?.confirmed_at);
  return {
    enabled,
    required: await twoFactorRequired(ctx),
    pending: Boolean(row) && !enabled,
    recoveryCodesLeft: enabled ? await countUnusedRecoveryCodes(ctx.db, uid) : 0,
  };
}

/** Starts (or starts again) an enrolment: a new secret, on only once a code of it is confirmed. */
export async function startEnrolment(ctx: AppContext, user: User): Promise<{ secret: string; otpauthUrl: string }> {
  const secret = newTotpSecret();
  if (!(await savePendingTwoFactor(ctx.db, user.uid, await sealTotpSecret(ctx.db, secret))))
    throw new ConflictError("Two-factor sign-in is already on; turn it off first to use another app");
  return { secret, otpauthUrl: otpauthUrlOf(secret, user.email) };
}

async function makeRecoveryCodes(ctx: AppContext, uid: string): Promise<string[]> {
  const codes = newRecoveryCodes();
  await replaceRecoveryCodes(ctx.db, uid, codes.map(recoveryCodeHash));
  return codes;
}

const wrongCode = () => new ValidationError("The code is not right", { code: "Wrong or already used code" });

/** Turns two-factor on with the pending secret's first right code; answers the recovery codes, shown this once. */
export async function confirmEnrolment(ctx: AppContext, uid: string, code: string): Promise<string[]> {
  const row = await findTwoFactor(ctx.db, uid);
  if (!row || row.confirmed_at) throw new ConflictError("No two-factor enrolment is waiting for a code");
  const step = stepOfCode(await openTotpSecret(ctx.db, row.secret_sealed), code);
  if (step === undefined || !(await claimStep(ctx.db, uid, step, { confirm: true }))) throw wrongCode();
  const codes = await makeRecoveryCodes(ctx, uid);
  ctx.logger.info({ uid }, "two-factor sign-in turned on");
  ctx.events.userChanged(uid);
  return codes;
}

/**
 * Whether `code` is a right authenticator code for the user's confirmed two-factor, not used
 * before: a code of the last accepted 30-second step, or an earlier one, is a replay.
 */
export async function acceptTotpCode(ctx: AppContext, uid: string, code: string): Promise<boolean> {
  const row = await findTwoFactor(ctx.db, uid);
  if (!row?.confirmed_at) return false;
  const step = stepOfCode(await openTotpSecret(ctx.db, row.secret_sealed), code);
  return step !== undefined && claimStep(ctx.db, uid, step);
}

/** Spends one of the user's recovery codes; mails the user when it worked. */
export async function acceptRecoveryCode(
  ctx: AppContext,
  user: { uid: string; email: string },
  code: string,
  mail: MailRoute,
): Promise<boolean> {
  if (!(await spendRecoveryCode(ctx.db, user.uid, recoveryCodeHash(code)))) return false;
  const left = await countUnusedRecoveryCodes(ctx.db, user.uid);
  ctx.logger.info({ uid: user.uid, left }, "recovery code used to sign in");
  mailRecoveryCodeUsed(ctx, mail, user, left);
  return true;
}

export type ProofFailure = "wrong code" | "no password" | "wrong password";

/** Checks a proof of presence (a current code, else the account's password); undefined when it holds. */
export async function proofFailure(
  ctx: AppContext,
  uid: string,
  passwordHash: string | null,
  proof: { code?: string; password?: string },
): Promise<ProofFailure | undefined> {
  if (proof.code !== undefined) return (await acceptTotpCode(ctx, uid, proof.code)) ? undefined : "wrong code";
  if (!passwordHash) return "no password";
  return (await verifyPassword(proof.password ?? "", passwordHash)) ? undefined : "wrong password";
}

/** Turns two-factor off, proven with a current code or the account's password (an unconfirmed enrolment needs neither). */
export async function disableTwoFactor(
  ctx: AppContext,
  uid: string,
  proof: { code?: string; password?: string },
): Promise<void> {
  const row = await findUserRow(ctx.db, uid);
  if (!row) throw new NotFoundError("User not found");
  const twoFactor = await findTwoFactor(ctx.db, uid);
  if (!twoFactor) throw new ConflictError("Two-factor sign-in is not on");
  if (twoFactor.confirmed_at) {
    // 400, not 401: a wrong proof must not read as a sign-in that ended.
    const failure = await proofFailure(ctx, uid, row.password_hash, proof);
    if (failure === "wrong code") throw wrongCode();
    if (failure) throw new ValidationError("The password is not right", { password: "Wrong password" });
  }
  await deleteTwoFactor(ctx.db, uid);
  ctx.logger.info({ uid }, "two-factor sign-in turned off");
  ctx.events.userChanged(uid);
}

/** New recovery codes; the old ones stop working. */
export async function regenerateRecoveryCodes(ctx: AppContext, uid: string): Promise<string[]> {
  if (!(await hasTwoFactor(ctx.db, uid))) throw new ConflictError("Two-factor sign-in is not on");
  const codes = await makeRecoveryCodes(ctx, uid);
  ctx.logger.info({ uid }, "recovery codes made anew");
  return codes;
}

/**
 * An admin turns someone's two-factor off (a lost phone and lost codes) and removes their passkeys
 * with it: the lost device may hold one, and a passkey signs in alone. The user is mailed, the log notes who.
 */
export async function resetTwoFactorAsAdmin(ctx: AppContext, actor: User, uid: string, mail: MailRoute): Promise<void> {
  // One's own goes off in Security, with a code or the password: this route asks for neither.
  if (uid === actor.uid) throw new ConflictError("Turn your own two-factor sign-in off in Security");
  const row = await findUserRow(ctx.db, uid);
  if (!row) throw new NotFoundError("User not found");
  const passkeysRemoved = await ctx.db.transaction(async (trx) =>
    (await deleteTwoFactor(trx, uid)) ? deleteUserPasskeys(trx, uid) : undefined,
  );
  if (passkeysRemoved === undefined) throw new ConflictError("Two-factor sign-in is not on for this user");
  ctx.logger.warn({ by: actor.uid, uid, passkeysRemoved }, "two-factor sign-in reset by an admin");
  ctx.events.resourceChanged({ resource: "users", type: "updated", ids: [uid] });
  mailTwoFactorReset(ctx, mail, { uid, email: row.email }, passkeysRemoved);
}
