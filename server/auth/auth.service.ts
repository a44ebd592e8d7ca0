import type { AppContext } from "../context";
import { UnauthorizedError } from "../http/errors";
import { authRateLimits, SIGN_IN } from "../http/rate-limit";
import { findUserRowByEmail, insertUser, toUser, type UserRow } from "../users/users.repository";
import type { MailRoute } from "../users/access-mail";
import { requestAccess } from "../users/users.service";
import { assertPasswordPolicy } from "./password-policy";
import { generatePassword, hashPassword, verifyPassword } from "./passwords";
import type { Session } from "../../api/types";
import { startSession, type SessionClient } from "./sessions";
import { hasTwoFactor } from "../two-factor/two-factor.repository";
import { issueChallenge, type TwoFactorRequired } from "./two-factor-sign-in";

let dummyHash: Promise<string> | undefined;

/** A real scrypt hash nobody's password matches, so an unknown e-mail costs the same time as a wrong password. */
function hashForMissingAccount(): Promise<string> {
  dummyHash ??= hashPassword(generatePassword());
  return dummyHash;
}

/**
 * Without ADMIN_EMAIL, the very first account becomes an approved admin (contract section 1);
 * with it, that account is the admin and everyone else waits for approval.
 */
export function firstAccountBecomesAdmin(ctx: AppContext): boolean {
  return !ctx.config.admin;
}

/**
 * Signing up is asking for access: an account made without it is pending at once (the admins'
 * badge counts it and they are mailed), whether or not its owner goes on to leave a message.
 */
export async function requestAccessForNewAccount(ctx: AppContext, row: UserRow, mail: MailRoute): Promise<void> {
  if (!row.has_access) await requestAccess(ctx, toUser(row), null, mail);
}

export async function signUp(
  ctx: AppContext,
  input: { email: string; password: string; displayName: string | null },
  mail: MailRoute,
  client?: SessionClient,
): Promise<Session> {
  assertPasswordPolicy(ctx.config.passwordPolicy, input.password);
  const row = await insertUser(
    ctx.db,
    { email: input.email, passwordHash: await hashPassword(input.password), displayName: input.displayName },
    { promoteIfFirst: firstAccountBecomesAdmin(ctx) },
  );
  ctx.logger.info({ uid: row.uid, role: row.role, hasAccess: Boolean(row.has_access) }, "account created");
  ctx.events.resourceChanged({ resource: "users", type: "created", ids: [row.uid] });
  await requestAccessForNewAccount(ctx, row, mail);
  return startSession(ctx, row, client);
}

/**
 * A sign-in counted on the account's budgets before the password is judged (429 past them, unjudged).
 * A browser that signed in to the account before (`deviceOf` finds its signed cookie) is held to a
 * ceiling of its own instead of the account-wide one. Only failures keep their count. Answers the
 * session and the browser's device id, if it had one; for an account with two-factor, no session
 * but a challenge for the second step (two-factor-sign-in.ts).
 */
export async function logIn(
  ctx: AppContext,
  input: { email: string; password: string },
  from: { ip: string | undefined; deviceOf: (uid: string) => Promise<string | undefined>; client?: SessionClient },
): Promise<{ session: Session; device: string | undefined } | TwoFactorRequired> {
  const row = await findUserRowByEmail(ctx.db, input.email);
  const device = row ? await from.deviceOf(row.uid) : undefined;
  const attempt = await authRateLimits(ctx).forAccount(SIGN_IN, input.email, from.ip, { device });
  const valid = await verifyPassword(input.password, row?.password_hash ?? (await hashForMissingAccount()));
  if (!row || !row.password_hash || !valid) {
    ctx.logger.info({ uid: row?.uid }, "sign-in refused");
    throw new UnauthorizedError("Invalid email or password");
  }
  if (await hasTwoFactor(ctx.db, row.uid)) {
    const challenge = await issueChallenge(ctx, row.uid);
    // The password was right: its count goes back; each code of the second step is counted anew.
    await attempt.succeeded();
    return challenge;
  }
  const session = await startSession(ctx, row, from.client);
  await attempt.succeeded();
  return { session, device };
}
