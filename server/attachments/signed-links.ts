import crypto from "node:crypto";
import { nowIso, type Db } from "../db/database";
import { isUniqueViolation } from "../db/dialect";

export const LINK_KINDS = ["view", "download", "thumbnail", "preview"] as const;
export type LinkKind = (typeof LINK_KINDS)[number];

/** Links live about an hour; expiry is rounded up to a window so a link stays the same (and cacheable) for a while. */
export const LINK_LIFETIME_SECONDS = 3600;
const EXPIRY_WINDOW_SECONDS = 600;
const SECRET_NAME = "attachment_link_key";

export interface LinkSigner {
  /** Relative URL such as `/api/attachments/7/view?exp=…&sig=…`. */
  url(id: number, kind: LinkKind, nowSeconds?: number): string;
  /** The four links of one attachment, from one signature computation. */
  urls(id: number, nowSeconds?: number): Record<LinkKind, string>;
  check(
    rawId: string,
    kind: LinkKind,
    exp: unknown,
    sig: unknown,
    nowSeconds?: number,
  ): "valid" | "invalid" | "expired";
}

const secrets = new WeakMap<Db, Promise<Buffer>>();

async function loadOrCreateSecret(db: Db): Promise<Buffer> {
  const existing = await db("app_secrets").where({ name: SECRET_NAME }).first();
  if (existing) return Buffer.from(existing.value, "base64url");
  try {
    await db("app_secrets").insert({
      name: SECRET_NAME,
      value: crypto.randomBytes(32).toString("base64url"),
      created_at: nowIso(),
    });
  } catch (err) {
    // Another process created it first: use theirs.
    if (!isUniqueViolation(err)) throw err;
  }
  return loadOrCreateSecret(db);
}

function secretFor(db: Db): Promise<Buffer> {
  let secret = secrets.get(db);
  if (!secret) {
    secret = loadOrCreateSecret(db);
    secret.catch(() => secrets.delete(db));
    secrets.set(db, secret);
  }
  return secret;
}

const seconds = () => Math.floor(Date.now() / 1000);

const expiryOf = (now: number) =>
  String(Math.ceil((now + LINK_LIFETIME_SECONDS) / EXPIRY_WINDOW_SECONDS) * EXPIRY_WINDOW_SECONDS);

/** Base64url characters of a signature: 16 bytes, one segment of an HMAC-SHA-512 per kind (four fit its 64). */
const SIGNATURE_LENGTH = 22;

/**
 * A link's signature is 128 bits of HMAC-SHA-512(key, `id\nexp`): the first 16 bytes for view,
 * the next for download, the next for thumbnail, the last for preview. One MAC gives an
 * attachment's four links (a list page signs 25 attachments, not 100 links), and each kind's bits are still its own: a view
 * link cannot be turned into a download link. Links signed before (HMAC-SHA-256 over
 * `id\nkind\nexp`, 43 characters) are still accepted until they expire.
 */
export async function linkSigner(db: Db): Promise<LinkSigner> {
  const key = await secretFor(db);
  const segments = (id: string, exp: string) => crypto.createHmac("sha512", key).update(`${id}\n${exp}`).digest();
  const segmentOf = (mac: Buffer, kind: LinkKind) =>
    mac.subarray(LINK_KINDS.indexOf(kind) * 16, LINK_KINDS.indexOf(kind) * 16 + 16).toString("base64url");
  const beforeSegments = (id: string, kind: LinkKind, exp: string) =>
    crypto.createHmac("sha256", key).update(`${id}\n${kind}\n${exp}`).digest().toString("base64url");
  const link = (id: number, kind: LinkKind, exp: string, mac: Buffer) =>
    `/api/attachments/${id}/${kind}?exp=${exp}&sig=${segmentOf(mac, kind)}`;

  return {
    url(id, kind, now = seconds()) {
      const exp = expiryOf(now);
      return link(id, kind, exp, segments(String(id), exp));
    },
    urls(id, now = seconds()) {
      const exp = expiryOf(now);
      const mac = segments(String(id), exp);
      return {
        view: link(id, "view", exp, mac),
        download: link(id, "download", exp, mac),
        thumbnail: link(id, "thumbnail", exp, mac),
        preview: link(id, "preview", exp, mac),
      };
    },
    check(rawId, kind, exp, sig, now = seconds()) {
      if (typeof exp !== "string" || typeof sig !== "string" || !/^\d{1,12}$/.test(exp)) return "invalid";
      const expected =
        sig.length === SIGNATURE_LENGTH ? segmentOf(segments(rawId, exp), kind) : beforeSegments(rawId, kind, exp);
      const given = Buffer.from(sig);
      if (given.length !== expected.length || !crypto.timingSafeEqual(given, Buffer.from(expected))) return "invalid";
      return Number(exp) > now ? "valid" : "expired";
    },
  };
}
