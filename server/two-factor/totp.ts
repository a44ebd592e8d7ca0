import { Secret, TOTP } from "otpauth";

/** RFC 6238 as every authenticator app reads it: SHA-1, six digits, 30-second steps. */
const PERIOD_SECONDS = 30;
/** One step either way of the server's clock is accepted: a phone a little fast or slow. */
const DRIFT_STEPS = 1;
const ISSUER = "Photodrop";

const totpOf = (secret: string, account: string) =>
  new TOTP({
    issuer: ISSUER,
    label: account,
    algorithm: "SHA1",
    digits: 6,
    period: PERIOD_SECONDS,
    secret: Secret.fromBase32(secret),
  });

/** A new 160-bit secret in base32, as authenticator apps take it typed in. */
export const newTotpSecret = (): string => new Secret({ size: 20 }).base32;

/** The `otpauth://totp/…` address a QR code carries. */
export const otpauthUrlOf = (secret: string, account: string): string => totpOf(secret, account).toString();

/**
 * The time step a code belongs to, within the drift allowed around `now`; undefined for a wrong
 * code. The caller refuses a step not after the last one accepted (a replay).
 */
export function stepOfCode(secret: string, code: string, now = Date.now()): number | undefined {
  const token = code.replace(/\s+/g, "");
  if (!/^\d{6}$/.test(token)) return undefined;
  const delta = totpOf(secret, "").validate({ token, timestamp: now, window: DRIFT_STEPS });
  if (delta === null) return undefined;
  return Math.floor(now / 1000 / PERIOD_SECONDS) + delta;
}
