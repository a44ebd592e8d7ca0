import crypto from "node:crypto";
import type { Db } from "../db/database";
import { appSecret } from "../db/app-secrets";

/**
 * Authenticator secrets are stored sealed (AES-256-GCM) under a key derived (HKDF-SHA256) from an
 * app secret of `app_secrets`, so a copy of the users' two-factor rows alone (a dump of one table,
 * a log, a support export) reveals no secret.
 */
async function boxKey(db: Db): Promise<Buffer> {
  const master = await appSecret(db, "two-factor-secrets");
  return Buffer.from(crypto.hkdfSync("sha256", master, Buffer.alloc(0), "photodrop two-factor secret v1", 32));
}

export async function sealTotpSecret(db: Db, secret: string): Promise<string> {
  const iv = crypto.randomBytes(12);
  const cipher = crypto.createCipheriv("aes-256-gcm", await boxKey(db), iv);
  const sealed = Buffer.concat([cipher.update(secret, "utf8"), cipher.final()]);
  return `v1:${Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString("base64url")}`;
}

export async function openTotpSecret(db: Db, stored: string): Promise<string> {
  const raw = Buffer.from(stored.slice(3), "base64url");
  const decipher = crypto.createDecipheriv("aes-256-gcm", await boxKey(db), raw.subarray(0, 12));
  decipher.setAuthTag(raw.subarray(12, 28));
  return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString("utf8");
}
