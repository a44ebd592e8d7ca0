import type { AppContext } from "../context";
import { nowIso } from "../db/database";
import { mailerOf } from "../mail/mailer";
import { findProjectForMail, type ProjectForMail } from "../sending/sending.repository";
import type { NotificationSettings, SelectionNotice } from "../../api/types";
import { recentSelections } from "./selection-notices";
import { claimNotice, deliveryMailWanted, setDeliveryMailWanted, staffToNotify } from "./notifications.repository";
import { downloadedMail, expiredUnusedMail } from "./staff-mail";

export async function notificationSettings(ctx: AppContext, uid: string): Promise<NotificationSettings> {
  return { deliveryMail: await deliveryMailWanted(ctx.db, uid) };
}

/** The selections clients sent lately, the latest first: every staff member's bell lists them. */
export async function selectionNotices(ctx: AppContext): Promise<SelectionNotice[]> {
  return recentSelections(ctx.reads);
}

export async function updateNotificationSettings(
  ctx: AppContext,
  uid: string,
  change: NotificationSettings,
): Promise<NotificationSettings> {
  await setDeliveryMailWanted(ctx.db, uid, change.deliveryMail);
  return notificationSettings(ctx, uid);
}

/** How a staff mail names the client: the project's client, else whoever the link says downloaded. */
const clientName = (project: ProjectForMail, downloader?: string) => project.clientName ?? downloader ?? "Your client";

async function mailStaff(ctx: AppContext, projectId: number, mail: { subject: string; text: string }) {
  for (const staff of await staffToNotify(ctx.db, projectId)) {
    await mailerOf(ctx)
      .send({ to: staff.email, ...mail })
      .catch((err: unknown) =>
        ctx.logger.warn({ err, projectId, to: staff.email }, "a delivery notification could not be sent"),
      );
  }
}

/**
 * The first full download of the project's ZIP since it was published: its sender (or every
 * admin) hears once, however many processes count downloads.
 */
export async function notifyFirstDownload(ctx: AppContext, projectId: number, downloader?: string): Promise<void> {
  const project = await findProjectForMail(ctx.db, projectId);
  if (!project?.publishedAt) return;
  if (!(await claimNotice(ctx.db, projectId, `first-download:${project.publishedAt}`))) return;
  await mailStaff(
    ctx,
    projectId,
    downloadedMail(project, clientName(project, downloader), nowIso(), ctx.config.publicUrl),
  );
}

/** A link that expired with no full download since it was published (the caller has claimed the occasion). */
export async function notifyExpiredUnused(ctx: AppContext, project: ProjectForMail): Promise<void> {
  await mailStaff(ctx, project.id, expiredUnusedMail(project, clientName(project), ctx.config.publicUrl));
}
