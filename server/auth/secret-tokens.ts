import crypto from "node:crypto";

/** A 256-bit random token for the client and the SHA-256 the database keeps instead of it. */
export function newSecretToken(): { token: string; hash: string } {
  const token = crypto.randomBytes(32).toString("base64url");
  return { token, hash: hashSecretToken(token) };
}

export function hashSecretToken(token: string): string {
  return crypto.createHash("sha256").update(token, "utf8").digest("hex");
}

export function secondsFromNow(seconds: number): string {
  return new Date(Date.now() + seconds * 1000).toISOString();
}
