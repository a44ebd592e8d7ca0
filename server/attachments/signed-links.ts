import crypto from "node:crypto";
import { nowIso, type Db } from "../db/database";
import { isUniqueViolation } from "../db/dialect";

export const LINK_KINDS = ["view", "download", "thumbnail"] as const;
export type LinkKind = (typeof LINK_KINDS)[number];

/** Links live about an hour; expiry is rounded up to a window so a link stays the same (and cacheable) for a while. */
export const LINK_LIFETIME_SECONDS = 3600;
const EXPIRY_WINDOW_SECONDS = 600;
const SECRET_NAME = "attachment_link_key";

export interface LinkSigner {
  /** Relative URL such as `/api/attachments/7/view?exp=…&sig=…`. */
  url(id: number, kind: LinkKind, nowSeconds?: number): string;
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

export async function linkSigner(db: Db): Promise<LinkSigner> {
  const key = await secretFor(db);
  const sign = (id: string, kind: LinkKind, exp: string) =>
    crypto.createHmac("sha256", key).update(`${id}\n${kind}\n${exp}`).digest();

  return {
    url(id, kind, now = seconds()) {
      const exp = String(Math.ceil((now + LINK_LIFETIME_SECONDS) / EXPIRY_WINDOW_SECONDS) * EXPIRY_WINDOW_SECONDS);
      return `/api/attachments/${id}/${kind}?exp=${exp}&sig=${sign(String(id), kind, exp).toString("base64url")}`;
    },
    check(rawId, kind, exp, sig, now = seconds()) {
      if (typeof exp !== "string" || typeof sig !== "string" || !/^\d{1,12}$/.test(exp)) return "invalid";
      const given = Buffer.from(sig);
      const expected = Buffer.from(sign(rawId, kind, exp).toString("base64url"));
      if (given.length !== expected.length || !crypto.timingSafeEqual(given, expected)) return "invalid";
      return Number(exp) > now ? "valid" : "expired";
    },
  };
}
