import crypto from "node:crypto";
import { hashSecretToken } from "../auth/secret-tokens";

const RECOVERY_CODE_COUNT = 10;
/** Crockford's base32: no i, l, o or u, so a code read aloud or copied by hand stays right. */
const ALPHABET = "0123456789abcdefghjkmnpqrstvwxyz";

/** `xxxx-xxxx-xxxx`: 60 random bits each. */
export function newRecoveryCodes(): string[] {
  return Array.from({ length: RECOVERY_CODE_COUNT }, () => {
    const chars = Array.from(crypto.randomBytes(12), (byte) => ALPHABET[byte % 32]).join("");
    return `${chars.slice(0, 4)}-${chars.slice(4, 8)}-${chars.slice(8)}`;
  });
}

/** The stored form of a code as typed: case, spaces and dashes aside, the look-alike letters read as digits. */
export function recoveryCodeHash(code: string): string {
  const normal = code
    .toLowerCase()
    .replace(/[\s-]+/g, "")
    .replace(/[il]/g, "1")
    .replace(/o/g, "0");
  return hashSecretToken(`recovery|${normal}`);
}
