import type { Db } from "../db/database";
import { nowIso, toIso } from "../db/database";

/** A passkey as the API answers it. */
export interface Passkey {
  id: number;
  name: string;
  createdAt: string;
  lastUsedAt: string | null;
}

/** What a sign-in needs of a stored passkey. */
export interface StoredCredential {
  id: number;
  uid: string;
  credentialId: string;
  publicKey: string;
  counter: number;
  transports: string[];
  rpId: string;
}

interface PasskeyRow {
  id: number;
  user_uid: string;
  credential_id: string;
  public_key: string;
  counter: number | string;
  transports: string | null;
  rp_id: string;
  name: string;
  created_at: string | Date;
  last_used_at: string | Date | null;
}

const toPasskey = (row: PasskeyRow): Passkey => ({
  id: Number(row.id),
  name: row.name,
  createdAt: toIso(row.created_at)!,
  lastUsedAt: toIso(row.last_used_at),
});

const toCredential = (row: PasskeyRow): StoredCredential => ({
  id: Number(row.id),
  uid: row.user_uid,
  credentialId: row.credential_id,
  publicKey: row.public_key,
  counter: Number(row.counter),
  transports: row.transports ? row.transports.split(",") : [],
  rpId: row.rp_id,
});

export async function listPasskeys(db: Db, uid: string): Promise<Passkey[]> {
  const rows = await db<PasskeyRow>("passkeys")
    .where({ user_uid: uid })
    .orderBy([{ column: "created_at" }, "id"]);
  return rows.map(toPasskey);
}

/** The credential ids of the user's passkeys, so the browser does not make a second one on the same authenticator. */
export async function credentialIdsOf(db: Db, uid: string): Promise<Array<{ id: string; transports: string[] }>> {
  const rows = await db<PasskeyRow>("passkeys").where({ user_uid: uid });
  return rows.map((row) => ({ id: row.credential_id, transports: toCredential(row).transports }));
}

export async function findCredential(db: Db, credentialId: string): Promise<StoredCredential | undefined> {
  const row = await db<PasskeyRow>("passkeys").where({ credential_id: credentialId }).first();
  return row && toCredential(row);
}

/** Stores a new passkey; undefined when its credential is registered already (to anyone). */
export async function insertPasskey(
  db: Db,
  passkey: Omit<StoredCredential, "id"> & { name: string },
): Promise<Passkey | undefined> {
  return db.transaction(async (trx) => {
    const taken = await trx("passkeys").where({ credential_id: passkey.credentialId }).first("id");
    if (taken) return undefined;
    const [inserted] = (await trx("passkeys")
      .insert({
        user_uid: passkey.uid,
        credential_id: passkey.credentialId,
        public_key: passkey.publicKey,
        counter: passkey.counter,
        transports: passkey.transports.join(",") || null,
        rp_id: passkey.rpId,
        name: passkey.name,
        created_at: nowIso(),
        last_used_at: null,
      })
      .returning("id")) as Array<{ id: number } | number>;
    const id = typeof inserted === "number" ? inserted : Number(inserted.id);
    return toPasskey((await trx<PasskeyRow>("passkeys").where({ id }).first())!);
  });
}

export async function renamePasskey(db: Db, uid: string, id: number, name: string): Promise<Passkey | undefined> {
  const changed = await db("passkeys").where({ id, user_uid: uid }).update({ name });
  if (changed === 0) return undefined;
  const row = await db<PasskeyRow>("passkeys").where({ id, user_uid: uid }).first();
  return row && toPasskey(row);
}

export async function deletePasskey(db: Db, uid: string, id: number): Promise<boolean> {
  return (await db("passkeys").where({ id, user_uid: uid }).delete()) > 0;
}

/** Removes every passkey of the user (an admin's two-factor reset); answers how many went. */
export async function deleteUserPasskeys(db: Db, uid: string): Promise<number> {
  return db("passkeys").where({ user_uid: uid }).delete();
}

/**
 * Records a sign-in: the new counter and the time. The counter must rise (an authenticator that
 * counts nothing always says 0), checked in the same UPDATE: of two sign-ins racing with one
 * assertion, only one gets true.
 */
export async function recordUse(db: Db, id: number, previous: number, counter: number): Promise<boolean> {
  const changed = await db("passkeys")
    .where({ id, counter: previous })
    .where((q) => (counter === 0 ? q.where("counter", 0) : q.where("counter", "<", counter)))
    .update({ counter, last_used_at: nowIso() });
  return changed === 1;
}
