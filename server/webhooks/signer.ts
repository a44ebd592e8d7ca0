import crypto from "node:crypto";
import type { Db } from "../db/database";
import { appSecret } from "../db/app-secrets";

const PREFIX = "whsec_";

/** A new endpoint secret: `whsec_` and 32 random bytes in base64 (the Standard Webhooks signing key is the base64 part). */
export const newWebhookSecret = (): string => PREFIX + crypto.randomBytes(32).toString("base64");

const keyOf = (secret: string) => Buffer.from(secret.slice(PREFIX.length), "base64");

/**
 * The Standard Webhooks headers for one attempt: `webhook-signature` is `v1,` and the base64
 * HMAC-SHA256 of `id.timestamp.body` under the secret's decoded key.
 */
export function signedHeaders(secret: string, id: string, timestampSeconds: number, body: string) {
  const signature = crypto
    .createHmac("sha256", keyOf(secret))
    .update(`${id}.${timestampSeconds}.${body}`)
    .digest("base64");
  return {
    "webhook-id": id,
    "webhook-timestamp": String(timestampSeconds),
    "webhook-signature": `v1,${signature}`,
  };
}

/** Secrets are stored encrypted (AES-256-GCM) under a key of `app_secrets`, so a copy of the table alone signs nothing. */
const boxKey = (db: Db) => appSecret(db, "webhook-secrets");

export async function sealSecret(db: Db, secret: string): Promise<string> {
  const iv = crypto.randomBytes(12);
  const cipher = crypto.createCipheriv("aes-256-gcm", await boxKey(db), iv);
  const sealed = Buffer.concat([cipher.update(secret, "utf8"), cipher.final()]);
  return `v1:${Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString("base64url")}`;
}

export async function openSecret(db: Db, stored: string): Promise<string> {
  const raw = Buffer.from(stored.slice(3), "base64url");
  const decipher = crypto.createDecipheriv("aes-256-gcm", await boxKey(db), raw.subarray(0, 12));
  decipher.setAuthTag(raw.subarray(12, 28));
  return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString("utf8");
}
