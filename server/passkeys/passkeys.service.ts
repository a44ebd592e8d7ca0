import {
  generateRegistrationOptions,
  verifyRegistrationResponse,
  type PublicKeyCredentialCreationOptionsJSON,
  type RegistrationResponseJSON,
} from "@simplewebauthn/server";
import type { AppContext } from "../context";
import { ConflictError, NotFoundError, ValidationError } from "../http/errors";
import type { User } from "../../api/types";
import { secondsFromNow } from "../auth/secret-tokens";
import { insertCeremony, spendCeremony } from "./passkey-challenges.repository";
import {
  credentialIdsOf,
  deletePasskey,
  insertPasskey,
  listPasskeys,
  renamePasskey,
  type Passkey,
} from "./passkeys.repository";
import type { RelyingParty } from "./relying-party";
import { BROWSER_TIMEOUT_MS, CEREMONY_SECONDS, RP_NAME, withoutQuotedValues } from "./ceremony";

const notFound = () => new NotFoundError("Passkey not found");

/**
 * Options for `navigator.credentials.create`: a discoverable credential (a sign-in needs no e-mail)
 * verified by the user (PIN, fingerprint, face), so the passkey alone is both factors.
 */
export async function registrationOptions(
  ctx: AppContext,
  user: User,
  relyingParty: RelyingParty,
): Promise<PublicKeyCredentialCreationOptionsJSON> {
  const options = await generateRegistrationOptions({
    rpName: RP_NAME,
    rpID: relyingParty.id,
    userName: user.email,
    userDisplayName: user.displayName ?? user.email,
    userID: new Uint8Array(Buffer.from(user.uid, "utf8")),
    timeout: BROWSER_TIMEOUT_MS,
    attestationType: "none",
    excludeCredentials: await credentialIdsOf(ctx.db, user.uid),
    authenticatorSelection: { residentKey: "required", userVerification: "required" },
  });
  await insertCeremony(ctx.db, {
    purpose: "register",
    uid: user.uid,
    challenge: options.challenge,
    relyingParty,
    expiresAt: secondsFromNow(CEREMONY_SECONDS),
  });
  return options;
}

/** Verifies what the authenticator made for the user's latest options (spent whatever the outcome) and keeps the passkey. */
export async function addPasskey(
  ctx: AppContext,
  uid: string,
  input: { name: string; response: RegistrationResponseJSON },
): Promise<Passkey> {
  const ceremony = await spendCeremony(ctx.db, "register", { uid });
  if (!ceremony) throw new ValidationError("Start again: the passkey's challenge was used or has run out");
  let verified: Awaited<ReturnType<typeof verifyRegistrationResponse>>;
  try {
    verified = await verifyRegistrationResponse({
      response: input.response,
      expectedChallenge: ceremony.challenge,
      expectedOrigin: ceremony.relyingParty.origin,
      expectedRPID: ceremony.relyingParty.id,
      requireUserVerification: true,
    });
  } catch (error) {
    ctx.logger.info({ uid, reason: withoutQuotedValues((error as Error).message) }, "passkey registration refused");
    throw new ValidationError("The passkey could not be verified");
  }
  if (!verified.verified) throw new ValidationError("The passkey could not be verified");
  const { credential } = verified.registrationInfo;
  const passkey = await insertPasskey(ctx.db, {
    uid,
    name: input.name,
    credentialId: credential.id,
    publicKey: Buffer.from(credential.publicKey).toString("base64url"),
    counter: credential.counter,
    transports: credential.transports ?? [],
    rpId: ceremony.relyingParty.id,
  });
  if (!passkey) throw new ConflictError("This passkey is registered already");
  ctx.logger.info({ uid, passkey: passkey.id }, "passkey added");
  return passkey;
}

export const passkeysOf = (ctx: AppContext, uid: string) => listPasskeys(ctx.db, uid);

export async function renameOwnPasskey(ctx: AppContext, uid: string, id: number, name: string): Promise<Passkey> {
  const passkey = await renamePasskey(ctx.db, uid, id, name);
  if (!passkey) throw notFound();
  return passkey;
}

export async function removeOwnPasskey(ctx: AppContext, uid: string, id: number): Promise<void> {
  if (!(await deletePasskey(ctx.db, uid, id))) throw notFound();
  ctx.logger.info({ uid, passkey: id }, "passkey removed");
}
