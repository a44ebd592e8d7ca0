import crypto from "node:crypto";
import type { Db } from "../db/database";
import { appSecret } from "../db/app-secrets";

/**
 * The signature of a cookie this server sets: HMAC-SHA256 (base64url, 43 characters) of its
 * fields, one a line, keyed by the app secret `secretName`, so none can be edited client-side.
 */
export async function cookieSignature(
  db: Db,
  secretName: string,
  fields: ReadonlyArray<string | number>,
): Promise<string> {
  const key = await appSecret(db, secretName);
  return crypto.createHmac("sha256", key).update(fields.join("\n")).digest("base64url");
}

/** Whether `given` is the signature of `fields` (compared in constant time). */
export async function isCookieSignature(
  db: Db,
  secretName: string,
  fields: ReadonlyArray<string | number>,
  given: string,
): Promise<boolean> {
  const expected = Buffer.from(await cookieSignature(db, secretName, fields));
  const actual = Buffer.from(given);
  return actual.length === expected.length && crypto.timingSafeEqual(actual, expected);
}
