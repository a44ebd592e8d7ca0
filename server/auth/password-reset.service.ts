import type { AppContext } from "../context";
import { ValidationError } from "../http/errors";
import { authRateLimits, SIGN_IN } from "../http/rate-limit";
import type { Mailer } from "../mail/mailer";
import { findUserRow, findUserRowByEmail, updateUserRow } from "../users/users.repository";
import { assertPasswordPolicy } from "./password-policy";
import { consumeResetToken, insertResetToken, invalidateUserResetTokens } from "./password-reset.repository";
import { hashPassword } from "./passwords";
import { endEverySession } from "./sessions";
import { hashSecretToken, newSecretToken, secondsFromNow } from "./secret-tokens";

const RESET_TOKEN_TTL_SECONDS = 3600;

/**
 * Stores a single-use token and mails its link. Answers the same way whether or not the account
 * exists, and the mail goes out after the answer so SMTP latency does not reveal it either.
 */
export async function requestPasswordReset(
  ctx: AppContext,
  mailer: Mailer,
  email: string,
  origin: string | undefined,
): Promise<void> {
  const row = await findUserRowByEmail(ctx.db, email);
  if (!row) return;
  if (!origin) {
    ctx.logger.warn(
      { uid: row.uid },
      "password reset link not sent: set PUBLIC_URL (the request's Host is not an address of this server)",
    );
    return;
  }
  const { token, hash } = newSecretToken();
  await insertResetToken(ctx.db, { uid: row.uid, hash, expiresAt: secondsFromNow(RESET_TOKEN_TTL_SECONDS) });
  const link = `${origin}/login?mode=reset&token=${token}`;
  mailer
    .send({
      to: row.email,
      subject: "Reset your Photodrop password",
      text: [
        `Someone asked to reset the password of the Photodrop account ${row.email}.`,
        "",
        "To choose a new password, open this link within one hour:",
        link,
        "",
        "The link works once. If you did not ask for this, ignore this e-mail: your password stays as it is.",
        "",
      ].join("\n"),
    })
    .catch((err: Error) =>
      ctx.logger.error({ uid: row.uid, err: err.message }, "password reset e-mail could not be sent"),
    );
}

/**
 * Sets the new password, spends the link, signs the account out everywhere, and ends the
 * account's sign-in budgets (every address's and the ceiling): its owner may sign in at once.
 */
export async function confirmPasswordReset(ctx: AppContext, token: string, password: string): Promise<void> {
  assertPasswordPolicy(ctx.config.passwordPolicy, password);
  const passwordHash = await hashPassword(password);
  const uid = await ctx.db.transaction(async (trx) => {
    const owner = await consumeResetToken(trx, hashSecretToken(token));
    if (!owner) return undefined;
    // Following the mailed link proves the address belongs to this person.
    await updateUserRow(trx, owner, { password_hash: passwordHash, email_verified: true });
    await endEverySession(trx, owner);
    await invalidateUserResetTokens(trx, owner);
    return owner;
  });
  if (!uid) throw new ValidationError("Invalid or expired reset link");
  const owner = await findUserRow(ctx.db, uid);
  if (owner) await authRateLimits(ctx).clearAccount(SIGN_IN, owner.email);
  ctx.events.userChanged(uid);
  ctx.logger.info({ uid }, "password reset; every session of the account revoked");
}
