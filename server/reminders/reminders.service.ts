import type { AppContext } from "../context";
import { clientMailBrand, type MailBrand } from "../mail/client-brand";
import { nowIso } from "../db/database";
import { NotFoundError } from "../http/errors";
import { announceActivity, recordActivity, recipientLabel } from "../activity/activity.service";
import { notifyExpiredUnused } from "../notifications/notifications.service";
import { reminderTexts } from "../sending/client-mail";
import { sendLinkMail } from "../sending/link-mail";
import { mailAddresses, mailbox } from "../unsubscribe/unsubscribe.service";
import type { ReminderSettings } from "../../api/types";
import {
  claimDueReminders,
  findReminderDays,
  markReminded,
  recordExpiry,
  retryReminderAt,
  unrecordedExpiries,
  updateReminderDays,
  type DueReminder,
} from "./reminders.repository";

export const MAX_REMINDER_DAYS = 30;
/** A claimed reminder is another process's to take once this runs out (its process died mid-send). */
const CLAIM_MS = 5 * 60_000;
const RETRY_AFTER_FAILURE_MS = 60 * 60_000;
/** An expiry older than this when first seen (the server was off, or this release is new) is not announced. */
const EXPIRY_LOOKBACK_MS = 7 * 24 * 3600 * 1000;

export async function reminderSettings(ctx: AppContext, projectId: number): Promise<ReminderSettings> {
  const days = await findReminderDays(ctx.db, projectId);
  if (days === undefined) throw new NotFoundError("Project not found");
  return { days };
}

export async function updateReminderSettings(
  ctx: AppContext,
  projectId: number,
  change: ReminderSettings,
): Promise<ReminderSettings> {
  if (!(await updateReminderDays(ctx.db, projectId, change.days))) throw new NotFoundError("Project not found");
  announceActivity(ctx, projectId);
  return { days: change.days };
}

async function sendReminder(
  ctx: AppContext,
  reminder: DueReminder,
  brand: MailBrand,
  unsubscribeToken: string,
): Promise<void> {
  const { project } = reminder;
  const studio = brand.name;
  const texts = reminderTexts(studio, project.name, project.expiresAt!, brand.timeZone, brand.language);
  await sendLinkMail(ctx, {
    project: { ...project, zipPath: project.zipPath! },
    holder: reminder,
    brand,
    texts,
    unsubscribeToken,
  });
}

/**
 * Sends the reminders due now, each once: claimed in the database first, so of several processes
 * looking at the same moment only one sends it, and a restart finds what is still due there.
 * Without SMTP_URL nothing is due: a client's mail is never written to the log instead.
 */
export async function sendDueReminders(ctx: AppContext, now = Date.now()): Promise<number> {
  if (!ctx.config.mail.smtpUrl) return 0;
  const due = await claimDueReminders(ctx.db, {
    now,
    claimUntil: new Date(now + CLAIM_MS).toISOString(),
    maxDays: MAX_REMINDER_DAYS,
    limit: 100,
  });
  const addresses = await mailAddresses(
    ctx,
    due.map((d) => d.email),
  );
  // One brand per project (its cover is drawn for the mail), however many of its recipients are due.
  const brands = new Map<number, Promise<MailBrand>>();
  const brandOf = (project: DueReminder["project"]) => {
    let brand = brands.get(project.id);
    if (!brand) brands.set(project.id, (brand = clientMailBrand(ctx, project)));
    return brand;
  };
  let sent = 0;
  for (const reminder of due) {
    const address = addresses.get(mailbox(reminder.email));
    if (!address || address.unsubscribed) {
      await markReminded(ctx.db, reminder.recipientId, nowIso());
      continue;
    }
    try {
      await sendReminder(ctx, reminder, await brandOf(reminder.project), address.token);
    } catch (err) {
      ctx.logger.warn({ err, projectId: reminder.project.id, to: reminder.email }, "a reminder could not be sent");
      await retryReminderAt(ctx.db, reminder.recipientId, new Date(Date.now() + RETRY_AFTER_FAILURE_MS).toISOString());
      continue;
    }
    await markReminded(ctx.db, reminder.recipientId, nowIso());
    await recordActivity(ctx, reminder.project.id, "reminder", { recipients: [recipientLabel(reminder)] });
    sent += 1;
  }
  return sent;
}

/**
 * Records each link that has expired since the last look, once, on its timeline; one that was
 * never downloaded in full since it was published is mailed to its sender (or the admins).
 */
export async function recordExpiredLinks(ctx: AppContext, now = Date.now()): Promise<number> {
  const expired = await unrecordedExpiries(
    ctx.db,
    new Date(now).toISOString(),
    new Date(now - EXPIRY_LOOKBACK_MS).toISOString(),
  );
  let recorded = 0;
  for (const project of expired) {
    const unused =
      !project.lastDownloadAt ||
      (project.publishedAt !== null && new Date(project.lastDownloadAt) < new Date(project.publishedAt));
    if (!(await recordExpiry(ctx.db, project, unused, nowIso()))) continue;
    recorded += 1;
    announceActivity(ctx, project.id);
    if (unused) await notifyExpiredUnused(ctx, project);
  }
  return recorded;
}
