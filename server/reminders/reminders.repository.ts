import type { Db } from "../db/database";
import { isPostgres } from "../db/transactions";
import { insertActivity } from "../activity/activity.repository";
import { claimNotice } from "../notifications/notifications.repository";
import {
  PROJECT_FOR_MAIL_COLUMNS,
  projectsWithClients,
  toProjectForMail,
  type ProjectForMail,
} from "../sending/sending.repository";

const DAY_MS = 24 * 3600 * 1000;

export interface DueReminder {
  recipientId: number;
  email: string;
  name: string | null;
  linkKey: string;
  linkOrigin: string;
  project: ProjectForMail;
}

/**
 * Claims the reminders due now for this process, until `claimUntil`: recipients of the link a
 * project still has, not downloaded, not reminded, whose link expires within the project's
 * reminder days, and who got their mail at least a day ago. On PostgreSQL the rows are taken with
 * SKIP LOCKED (as failExpiredBuilds does), so processes looking at once never claim the same one;
 * a claim that runs out (its process died) is taken again.
 */
export async function claimDueReminders(
  db: Db,
  opts: { now: number; claimUntil: string; maxDays: number; limit: number },
): Promise<DueReminder[]> {
  const now = new Date(opts.now).toISOString();
  return db.transaction(async (trx) => {
    let query = trx("delivery_recipients as r")
      .join("projects as p", "p.id", "r.project_id")
      .leftJoin("clients as c", "c.id", "p.client_id")
      .whereNull("r.reminded_at")
      .whereNull("r.downloaded_at")
      .where((q) => q.whereNull("r.reminder_claimed_until").orWhere("r.reminder_claimed_until", "<", now))
      .where("r.sent_at", "<=", new Date(opts.now - DAY_MS).toISOString())
      // An address mailed again is reminded once, for its latest mail.
      .whereNotExists(
        trx("delivery_recipients as later")
          .select(trx.raw("1"))
          .whereRaw("later.project_id = r.project_id")
          .whereRaw("lower(later.email) = lower(r.email)")
          .whereRaw("later.id > r.id"),
      )
      .where("p.publish_status", "published")
      .where("p.published_zip_path", trx.ref("r.zip_path"))
      .whereNotNull("p.delivery_reminder_days")
      .where("p.delivery_expires_at", ">", now)
      .where("p.delivery_expires_at", "<=", new Date(opts.now + opts.maxDays * DAY_MS).toISOString())
      .orderBy("r.id")
      .limit(opts.limit)
      .select("r.id as recipient_id", "r.email", "r.name as recipient_name", "r.link_key", "r.link_origin")
      .select(PROJECT_FOR_MAIL_COLUMNS);
    if (isPostgres(trx)) query = query.forUpdate("r").skipLocked();
    const due = (await query)
      .map((r) => ({
        recipientId: Number(r.recipient_id),
        email: r.email as string,
        name: (r.recipient_name as string | null) ?? null,
        linkKey: r.link_key as string,
        linkOrigin: r.link_origin as string,
        project: toProjectForMail(r),
      }))
      .filter(({ project: p }) => new Date(p.expiresAt!).getTime() - (p.reminderDays ?? 0) * DAY_MS <= opts.now);
    if (due.length > 0)
      await trx("delivery_recipients")
        .whereIn(
          "id",
          due.map((d) => d.recipientId),
        )
        .update({ reminder_claimed_until: opts.claimUntil });
    return due;
  });
}

/** Sent (or not to be sent: the address unsubscribed); either way never again. */
export async function markReminded(db: Db, recipientId: number, at: string): Promise<void> {
  await db("delivery_recipients").where({ id: recipientId }).update({ reminded_at: at, reminder_claimed_until: null });
}

/** The mail server did not take it: any process may try again from `retryAt`. */
export async function retryReminderAt(db: Db, recipientId: number, retryAt: string): Promise<void> {
  await db("delivery_recipients").where({ id: recipientId }).update({ reminder_claimed_until: retryAt });
}

/** Published links that expired after `since` and whose expiry has not been recorded yet. */
export async function unrecordedExpiries(db: Db, now: string, since: string): Promise<ProjectForMail[]> {
  const rows = await projectsWithClients(db)
    .where("p.publish_status", "published")
    .where("p.delivery_expires_at", "<=", now)
    .where("p.delivery_expires_at", ">", since)
    .whereNotExists(
      db("delivery_notices as n")
        .select(db.raw("1"))
        .whereRaw("n.project_id = p.id")
        .whereRaw("n.notice_key = 'expired:' || p.delivery_expires_at"),
    );
  return rows.map(toProjectForMail);
}

/** Records a link's expiry once (its notice and its timeline row together); false when another process already has. */
export async function recordExpiry(db: Db, project: ProjectForMail, unused: boolean, at: string): Promise<boolean> {
  return db.transaction(async (trx) => {
    if (!(await claimNotice(trx, project.id, `expired:${project.expiresAt}`))) return false;
    await insertActivity(trx, project.id, "expired", { unused }, at);
    return true;
  });
}

/** The project's reminder days (null: off), or undefined when there is no such project. */
export async function findReminderDays(db: Db, projectId: number): Promise<number | null | undefined> {
  const row = await db("projects").where({ id: projectId }).first("delivery_reminder_days");
  if (!row) return undefined;
  return row.delivery_reminder_days === null ? null : Number(row.delivery_reminder_days);
}

export async function updateReminderDays(db: Db, projectId: number, days: number | null): Promise<boolean> {
  return (await db("projects").where({ id: projectId }).update({ delivery_reminder_days: days })) > 0;
}
