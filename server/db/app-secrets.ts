import crypto from "node:crypto";
import { nowIso, type Db } from "./database";
import { isUniqueViolation } from "./dialect";

const cache = new WeakMap<Db, Map<string, Promise<Buffer>>>();

async function loadOrCreate(db: Db, name: string): Promise<Buffer> {
  const existing = await db("app_secrets").where({ name }).first();
  if (existing) return Buffer.from(existing.value, "base64url");
  try {
    await db("app_secrets").insert({ name, value: crypto.randomBytes(32).toString("base64url"), created_at: nowIso() });
  } catch (err) {
    // Another process created it first: use theirs.
    if (!isUniqueViolation(err)) throw err;
  }
  return loadOrCreate(db, name);
}

/** A 256-bit key kept in `app_secrets` under `name`, created on first use and read once per database. */
export function appSecret(db: Db, name: string): Promise<Buffer> {
  let byName = cache.get(db);
  if (!byName) cache.set(db, (byName = new Map()));
  let secret = byName.get(name);
  if (!secret) {
    secret = loadOrCreate(db, name);
    secret.catch(() => byName.delete(name));
    byName.set(name, secret);
  }
  return secret;
}
