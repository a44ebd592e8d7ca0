import {
  generateAuthenticationOptions,
  verifyAuthenticationResponse,
  type AuthenticationResponseJSON,
  type PublicKeyCredentialRequestOptionsJSON,
} from "@simplewebauthn/server";
import type { AppContext } from "../context";
import { UnauthorizedError } from "../http/errors";
import { authRateLimits, SIGN_IN } from "../http/rate-limit";
import type { Session } from "../../api/types";
import { startSession, type SessionClient } from "../auth/sessions";
import { secondsFromNow } from "../auth/secret-tokens";
import { findUserRow } from "../users/users.repository";
import { insertCeremony, spendCeremony } from "./passkey-challenges.repository";
import { findCredential, recordUse, type StoredCredential } from "./passkeys.repository";
import type { RelyingParty } from "./relying-party";
import { BROWSER_TIMEOUT_MS, CEREMONY_SECONDS, userHandleOf, withoutQuotedValues } from "./ceremony";

export interface PasskeySignInOptions {
  challengeId: string;
  options: PublicKeyCredentialRequestOptionsJSON;
}

/** Options for `navigator.credentials.get`: any of this site's discoverable passkeys, the user verified. */
export async function passkeySignInOptions(ctx: AppContext, relyingParty: RelyingParty): Promise<PasskeySignInOptions> {
  const options = await generateAuthenticationOptions({
    rpID: relyingParty.id,
    timeout: BROWSER_TIMEOUT_MS,
    userVerification: "required",
  });
  const challengeId = await insertCeremony(ctx.db, {
    purpose: "sign-in",
    uid: null,
    challenge: options.challenge,
    relyingParty,
    expiresAt: secondsFromNow(CEREMONY_SECONDS),
  });
  return { challengeId, options };
}

const refused = () => new UnauthorizedError("The passkey was not accepted. Try again, or sign in with your password.");

/** Judges the assertion against the passkey and the ceremony; answers the reason it fails, or null. */
async function problemWith(
  ctx: AppContext,
  passkey: StoredCredential,
  challengeId: string,
  response: AuthenticationResponseJSON,
): Promise<string | null> {
  const ceremony = await spendCeremony(ctx.db, "sign-in", { id: challengeId });
  if (!ceremony) return "challenge unknown, used or run out";
  if (ceremony.relyingParty.id !== passkey.rpId) return "passkey made for another address";
  // The signature does not cover the user handle: the passkey found by its id must be the account's own.
  const handle = response.response.userHandle;
  if (handle !== undefined && handle !== userHandleOf(passkey.uid)) return "user handle of another account";
  try {
    const { verified, authenticationInfo } = await verifyAuthenticationResponse({
      response,
      expectedChallenge: ceremony.challenge,
      expectedOrigin: ceremony.relyingParty.origin,
      expectedRPID: ceremony.relyingParty.id,
      credential: {
        id: passkey.credentialId,
        publicKey: new Uint8Array(Buffer.from(passkey.publicKey, "base64url")),
        counter: passkey.counter,
        transports: passkey.transports,
      },
      requireUserVerification: true,
    });
    if (!verified) return "signature not verified";
    if (!(await recordUse(ctx.db, passkey.id, passkey.counter, authenticationInfo.newCounter))) {
      return "counter did not rise (a cloned authenticator, or a sign-in racing with it)";
    }
    return null;
  } catch (error) {
    // The library refuses a counter at or below the stored one: a cloned authenticator.
    return withoutQuotedValues((error as Error).message);
  }
}

/**
 * A sign-in with a passkey alone: the passkey is found by its credential id, the attempt counted on
 * its account's sign-in budgets before it is judged (as a password is; a success gives the count
 * back), the challenge spent whatever the outcome, and the assertion verified: signature, origin,
 * user verification, and a counter that rises.
 */
export async function completePasskeySignIn(
  ctx: AppContext,
  input: { challengeId: string; response: AuthenticationResponseJSON },
  from: { ip: string | undefined; deviceOf: (uid: string) => Promise<string | undefined>; client: SessionClient },
): Promise<{ session: Session; device: string | undefined }> {
  const passkey = await findCredential(ctx.db, input.response.id);
  const row = passkey ? await findUserRow(ctx.db, passkey.uid) : undefined;
  if (!passkey || !row) {
    ctx.logger.info({ reason: "unknown passkey" }, "passkey sign-in refused");
    throw refused();
  }
  const device = await from.deviceOf(row.uid);
  const attempt = await authRateLimits(ctx).forAccount(SIGN_IN, row.email, from.ip, { device });
  const problem = await problemWith(ctx, passkey, input.challengeId, input.response);
  if (problem) {
    ctx.logger.info({ uid: row.uid, passkey: passkey.id, reason: problem }, "passkey sign-in refused");
    throw refused();
  }
  const session = await startSession(ctx, row, from.client);
  await attempt.succeeded();
  return { session, device };
}
