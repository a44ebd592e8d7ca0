import crypto from "node:crypto";
import zlib from "node:zlib";

/**
 * An API token: `pd_`, 32 random bytes in base62 (43 characters) and a CRC32 of what precedes it
 * in base62 (6 characters), as GitHub's tokens are made, so secret scanners recognise a Photodrop
 * token and a mistyped one is refused without asking the database.
 */
const PREFIX = "pd_";
const ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
const BODY_LENGTH = 43;
const CHECKSUM_LENGTH = 6;
const TOKEN = new RegExp(`^${PREFIX}[0-9A-Za-z]{${BODY_LENGTH + CHECKSUM_LENGTH}}$`);
/** What lists show of a token: enough to tell tokens apart, far too little to guess the rest. */
const SHOWN_LENGTH = PREFIX.length + 8;

function base62(value: bigint, length: number): string {
  let text = "";
  for (let rest = value; rest > 0n; rest /= 62n) text = ALPHABET[Number(rest % 62n)] + text;
  return text.padStart(length, "0");
}

const checksumOf = (text: string) => base62(BigInt(zlib.crc32(text)), CHECKSUM_LENGTH);

export function newApiToken(): string {
  const body = `${PREFIX}${base62(BigInt(`0x${crypto.randomBytes(32).toString("hex")}`), BODY_LENGTH)}`;
  return body + checksumOf(body);
}

/** Whether a bearer token is one of ours (prefix, length, checksum); says nothing of whether it is valid. */
export function isApiToken(token: string): boolean {
  if (!TOKEN.test(token)) return false;
  const body = token.slice(0, -CHECKSUM_LENGTH);
  return checksumOf(body) === token.slice(-CHECKSUM_LENGTH);
}

export const looksLikeApiToken = (token: string) => token.startsWith(PREFIX);

/** Only this is stored: a leaked database holds no usable token. */
export const apiTokenHash = (token: string) => crypto.createHash("sha256").update(token).digest("hex");

export const shownPartOf = (token: string) => token.slice(0, SHOWN_LENGTH);
