import { createRemoteJWKSet, jwtVerify, type JWTPayload } from "jose";
import type { Config } from "../config";
import type { AppContext } from "../context";
import { UnauthorizedError } from "../http/errors";
import { isSingleLine } from "../../api/validation";
import {
  findUserRow,
  findUserRowByEmail,
  findUserRowByGoogleSub,
  insertUser,
  updateUserRow,
  type UserRow,
} from "../users/users.repository";
import { firstAccountBecomesAdmin, requestAccessForNewAccount } from "./auth.service";
import type { MailRoute } from "../users/access-mail";
import { endEverySession, startSession, type SessionClient } from "./sessions";
import type { Session } from "../../api/types";

export interface GoogleIdentity {
  sub: string;
  email: string;
  name: string | null;
  picture: string | null;
}

export type GoogleVerifier = (credential: string) => Promise<GoogleIdentity>;

const GOOGLE_ISSUER = "https://accounts.google.com";

const failed = () => new UnauthorizedError("Google sign-in failed");

/** Checks a Google ID token's signature against the issuer's published keys, its issuer, audience and expiry. */
export function createGoogleVerifier(
  google: NonNullable<Config["google"]>,
  logger: AppContext["logger"],
): GoogleVerifier {
  const keys = createRemoteJWKSet(new URL(google.jwksUrl));
  // Google writes its issuer with and without the scheme.
  const issuer = google.issuer === GOOGLE_ISSUER ? [GOOGLE_ISSUER, "accounts.google.com"] : google.issuer;
  return async (credential) => {
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(credential, keys, {
        issuer,
        audience: google.clientId,
        algorithms: ["RS256"],
        requiredClaims: ["sub", "exp", "iat"],
      }));
    } catch (err) {
      logger.info({ reason: (err as { code?: string }).code ?? (err as Error).message }, "Google credential refused");
      throw failed();
    }
    const verified = payload.email_verified === true || payload.email_verified === "true";
    if (typeof payload.email !== "string" || !payload.email.includes("@")) throw failed();
    if (!verified) throw new UnauthorizedError("Google sign-in failed: the e-mail address is not verified");
    return {
      sub: payload.sub!,
      email: payload.email.trim().toLowerCase(),
      // A name that is not one line would write lines of the admins' access-request mail: none is kept.
      name: typeof payload.name === "string" && isSingleLine(payload.name) ? payload.name : null,
      picture: typeof payload.picture === "string" ? payload.picture : null,
    };
  };
}

/** The account for a Google identity: by Google id, else the account with the same verified e-mail, else a new one. */
async function accountFor(ctx: AppContext, identity: GoogleIdentity, mail: MailRoute): Promise<UserRow> {
  const bySub = await findUserRowByGoogleSub(ctx.db, identity.sub);
  if (bySub) return bySub;
  const byEmail = await findUserRowByEmail(ctx.db, identity.email);
  if (byEmail) {
    // A password set on an address nobody proved could belong to someone who registered it first;
    // the address's real owner just proved it, so that password stops working.
    const untrustedPassword = Boolean(byEmail.password_hash) && !byEmail.email_verified;
    // Before the row is read back, so the session started below carries the new generation.
    if (untrustedPassword) await endEverySession(ctx.db, byEmail.uid);
    await updateUserRow(ctx.db, byEmail.uid, {
      google_sub: identity.sub,
      email_verified: true,
      ...(untrustedPassword ? { password_hash: null } : {}),
      ...(byEmail.display_name ? {} : { display_name: identity.name }),
      ...(byEmail.photo_url ? {} : { photo_url: identity.picture }),
    });
    ctx.logger.info({ uid: byEmail.uid, droppedUnverifiedPassword: untrustedPassword }, "Google account linked");
    ctx.events.resourceChanged({ resource: "users", type: "updated", ids: [byEmail.uid] });
    return (await findUserRow(ctx.db, byEmail.uid))!;
  }
  const created = await insertUser(
    ctx.db,
    {
      email: identity.email,
      googleSub: identity.sub,
      emailVerified: true,
      displayName: identity.name,
      photoUrl: identity.picture,
    },
    { promoteIfFirst: firstAccountBecomesAdmin(ctx) },
  );
  ctx.logger.info(
    { uid: created.uid, role: created.role, hasAccess: Boolean(created.has_access) },
    "account created with Google",
  );
  ctx.events.resourceChanged({ resource: "users", type: "created", ids: [created.uid] });
  await requestAccessForNewAccount(ctx, created, mail);
  return created;
}

export async function signInWithGoogle(
  ctx: AppContext,
  verify: GoogleVerifier,
  credential: string,
  mail: MailRoute,
  client?: SessionClient,
): Promise<Session> {
  const identity = await verify(credential);
  // No second step here even with two-factor on: Google's sign-in has its own second factor.
  return startSession(ctx, await accountFor(ctx, identity, mail), client);
}
