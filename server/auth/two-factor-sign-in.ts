import type { AppContext } from "../context";
import { UnauthorizedError } from "../http/errors";
import { authRateLimits, SIGN_IN } from "../http/rate-limit";
import type { Session } from "../../api/types";
import { findUserRow } from "../users/users.repository";
import type { MailRoute } from "../users/access-mail";
import { acceptRecoveryCode, acceptTotpCode } from "../two-factor/two-factor.service";
import type { TwoFactorSignIn } from "../two-factor/two-factor.schema";
import { insertChallenge, liveChallengeOwner, spendChallenge } from "../two-factor/two-factor.repository";
import { hashSecretToken, newSecretToken, secondsFromNow } from "./secret-tokens";
import { startSession, type SessionClient } from "./sessions";

/** How long the second step may wait after the right password. */
const CHALLENGE_TTL_SECONDS = 5 * 60;

/** What the first step answers an account with two-factor: no session yet, a challenge for the second step. */
export interface TwoFactorRequired {
  twoFactorRequired: true;
  challenge: string;
}

/** The right password of an account with two-factor earns a challenge: random, stored hashed, single use, 5 minutes. */
export async function issueChallenge(ctx: AppContext, uid: string): Promise<TwoFactorRequired> {
  const { token, hash } = newSecretToken();
  await insertChallenge(ctx.db, uid, hash, secondsFromNow(CHALLENGE_TTL_SECONDS));
  return { twoFactorRequired: true, challenge: token };
}

const refused = () => new UnauthorizedError("Invalid or expired sign-in challenge, or wrong code");

/**
 * The second step: a live challenge and a right authenticator code (or an unused recovery code)
 * start the session. The attempt is counted on the account's sign-in budgets before it is judged,
 * exactly as a password is (a wrong code spends them, a right one gives its count back); the
 * challenge is spent only by success, so a mistyped code can be typed again within its 5 minutes.
 */
export async function completeTwoFactorSignIn(
  ctx: AppContext,
  input: TwoFactorSignIn,
  from: {
    ip: string | undefined;
    deviceOf: (uid: string) => Promise<string | undefined>;
    client: SessionClient;
    mail: MailRoute;
  },
): Promise<{ session: Session; device: string | undefined }> {
  const hash = hashSecretToken(input.challenge);
  const uid = await liveChallengeOwner(ctx.db, hash);
  const row = uid ? await findUserRow(ctx.db, uid) : undefined;
  if (!row) throw refused();
  const device = await from.deviceOf(row.uid);
  const attempt = await authRateLimits(ctx).forAccount(SIGN_IN, row.email, from.ip, { device });
  const right =
    input.code !== undefined
      ? await acceptTotpCode(ctx, row.uid, input.code)
      : await acceptRecoveryCode(ctx, row, input.recoveryCode ?? "", from.mail);
  if (!right) {
    ctx.logger.info({ uid: row.uid }, "sign-in refused: wrong second-step code");
    throw refused();
  }
  if (!(await spendChallenge(ctx.db, hash))) throw refused();
  const session = await startSession(ctx, row, from.client);
  await attempt.succeeded();
  return { session, device };
}
