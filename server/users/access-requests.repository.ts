import type { Db } from "../db/database";
import { nowIso } from "../db/database";
import type { AccessRequest } from "../../api/types";

/** One open request per user: asking again replaces the message and the time. */
export async function saveAccessRequest(
  db: Db,
  uid: string,
  message: string | null,
): Promise<{ created: boolean; request: AccessRequest }> {
  return db.transaction(async (trx) => {
    const now = nowIso();
    const updated = await trx("access_requests")
      .where({ user_uid: uid })
      .update({ message, created_at: now, updated_at: now });
    if (updated === 0) {
      await trx("access_requests").insert({ user_uid: uid, message, created_at: now, updated_at: now });
    }
    return { created: updated === 0, request: { message, createdAt: now } };
  });
}

export async function deleteAccessRequest(db: Db, uid: string): Promise<void> {
  await db("access_requests").where({ user_uid: uid }).delete();
}
