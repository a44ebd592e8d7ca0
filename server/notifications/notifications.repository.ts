import type { Db } from "../db/database";
import { nowIso } from "../db/database";

export interface StaffAddress {
  uid: string;
  email: string;
  displayName: string | null;
}

/** On unless the staff member turned delivery mails off. */
export async function deliveryMailWanted(db: Db, uid: string): Promise<boolean> {
  const row = await db("staff_notification_settings").where({ user_uid: uid }).first("delivery_mail");
  return row ? Boolean(row.delivery_mail) : true;
}

export async function setDeliveryMailWanted(db: Db, uid: string, wanted: boolean): Promise<void> {
  await db("staff_notification_settings")
    .insert({ user_uid: uid, delivery_mail: wanted, updated_at: nowIso() })
    .onConflict("user_uid")
    .merge();
}

const approvedAndWilling = (db: Db) =>
  db("users as u")
    .leftJoin("staff_notification_settings as s", "s.user_uid", "u.uid")
    .where("u.has_access", true)
    .where((q) => q.whereNull("s.delivery_mail").orWhere("s.delivery_mail", true));

/**
 * Who hears about a project's delivery: the staff who sent it, or every admin when nobody who
 * still has access did; in either case only those who have not turned delivery mails off.
 */
export async function staffToNotify(db: Db, projectId: number): Promise<StaffAddress[]> {
  const columns = ["u.uid", "u.email", "u.display_name"];
  const senders = await db("users as u")
    .where("u.has_access", true)
    .whereIn(
      "u.uid",
      db("delivery_recipients").where({ project_id: projectId }).whereNotNull("sent_by").select("sent_by"),
    )
    .select("u.uid", "u.email");
  const chosen =
    senders.length > 0
      ? approvedAndWilling(db).whereIn(
          "u.uid",
          senders.map((s) => s.uid as string),
        )
      : approvedAndWilling(db).where("u.role", "admin");
  const rows = await chosen.orderBy("u.email").select(columns);
  return rows.map((r) => ({ uid: r.uid, email: r.email, displayName: r.display_name ?? null }));
}

/**
 * Takes the once-only occasion `key` of a project for this process: true for the one caller
 * whose insert made the row, false for every other, whichever process it runs in.
 */
export async function claimNotice(db: Db, projectId: number, key: string): Promise<boolean> {
  const inserted = await db("delivery_notices")
    .insert({ project_id: projectId, notice_key: key, created_at: nowIso() }, ["project_id"])
    .onConflict(["project_id", "notice_key"])
    .ignore();
  return inserted.length === 1;
}
