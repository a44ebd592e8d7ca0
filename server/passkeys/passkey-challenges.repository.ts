import crypto from "node:crypto";
import type { Db } from "../db/database";
import { nowIso, toIso } from "../db/database";
import type { RelyingParty } from "./relying-party";

type CeremonyPurpose = "register" | "sign-in";

export interface Ceremony {
  id: string;
  uid: string | null;
  challenge: string;
  relyingParty: RelyingParty;
  expiresAt: string;
}

interface ChallengeRow {
  id: string;
  user_uid: string | null;
  purpose: string;
  challenge: string;
  rp_id: string;
  origin: string;
  expires_at: string | Date;
}

/**
 * Stores a ceremony's challenge; run-out ones go with each new one, and so does the user's earlier
 * registration (only the latest options can be answered).
 */
export async function insertCeremony(
  db: Db,
  ceremony: Omit<Ceremony, "id"> & { purpose: CeremonyPurpose },
): Promise<string> {
  const id = crypto.randomUUID();
  await db.transaction(async (trx) => {
    await trx("passkey_challenges").where("expires_at", "<", nowIso()).delete();
    if (ceremony.uid)
      await trx("passkey_challenges").where({ user_uid: ceremony.uid, purpose: ceremony.purpose }).delete();
    await trx("passkey_challenges").insert({
      id,
      user_uid: ceremony.uid,
      purpose: ceremony.purpose,
      challenge: ceremony.challenge,
      rp_id: ceremony.relyingParty.id,
      origin: ceremony.relyingParty.origin,
      expires_at: ceremony.expiresAt,
      created_at: nowIso(),
    });
  });
  return id;
}

/**
 * Takes a live ceremony out of the table, whatever the outcome of what follows: a challenge is
 * answered once. Of two requests racing with it, one gets it. `where` picks it by id (a sign-in)
 * or by user (a registration).
 */
export async function spendCeremony(
  db: Db,
  purpose: CeremonyPurpose,
  where: { id: string } | { uid: string },
): Promise<Ceremony | undefined> {
  const match = "id" in where ? { id: where.id, purpose } : { user_uid: where.uid, purpose };
  const row = await db<ChallengeRow>("passkey_challenges").where(match).first();
  if (!row) return undefined;
  const taken = await db("passkey_challenges").where({ id: row.id }).delete();
  if (taken !== 1 || new Date(row.expires_at).getTime() <= Date.now()) return undefined;
  return {
    id: row.id,
    uid: row.user_uid,
    challenge: row.challenge,
    relyingParty: { id: row.rp_id, origin: row.origin },
    expiresAt: toIso(row.expires_at)!,
  };
}
