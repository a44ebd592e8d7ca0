import type { Db } from "../db/database";
import { nowIso } from "../db/database";

/** How many of an account's places are kept: the most recently seen. */
export const PLACES_KEPT = 50;

/** The addresses the account has signed in from (at most PLACES_KEPT, ended sessions' too). */
export async function knownPlaces(db: Db, uid: string): Promise<string[]> {
  return (await db("sign_in_places").where({ user_uid: uid }).pluck("address")) as string[];
}

/** Notes a sign-in from `address` (new, or seen again now); forgets the account's oldest beyond PLACES_KEPT. */
export async function rememberPlace(db: Db, uid: string, address: string): Promise<void> {
  const now = nowIso();
  await db("sign_in_places")
    .insert({ user_uid: uid, address: address.slice(0, 64), first_seen_at: now, last_seen_at: now })
    .onConflict(["user_uid", "address"])
    .merge(["last_seen_at"]);
  const beyond = (await db("sign_in_places")
    .where({ user_uid: uid })
    .orderBy([
      { column: "last_seen_at", order: "desc" },
      { column: "address", order: "asc" },
    ])
    .offset(PLACES_KEPT)
    .pluck("address")) as string[];
  if (beyond.length > 0) await db("sign_in_places").where({ user_uid: uid }).whereIn("address", beyond).delete();
}
