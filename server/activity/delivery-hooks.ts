import type { Request } from "express";
import type { AppContext } from "../context";
import { nowIso } from "../db/database";
import type { User } from "../../api/types";
import { notifyFirstDownload } from "../notifications/notifications.service";
import { markDownloaded, recipientOfRequest } from "../sending/recipient-links.service";
import { countActivityToday, inBackground, recipientLabel, recordActivity, staffLabel } from "./activity.service";

/**
 * The delivery code's one-line hooks into the 'Delivery activity' timeline, each called where
 * that code already counts the event. They return at once and never fail the client's request:
 * the recording runs behind it and a failure is logged.
 */

/** The gallery was shown (beside countView). */
export function noteView(ctx: AppContext, projectId: number): void {
  inBackground(ctx, "a page view", () => countActivityToday(ctx, projectId, "views"));
}

/** A wrong passcode (beside the failure the passcode limit counts). */
export function notePasscodeFailure(ctx: AppContext, projectId: number): void {
  inBackground(ctx, "a passcode failure", () => countActivityToday(ctx, projectId, "passcode_failures"));
}

/**
 * A full download of the ZIP (where countDownload has counted it): on the timeline with the
 * recipient whose mail opened the page, that recipient's reminder is off, and the first one
 * since publishing is mailed to the staff.
 */
export function noteZipDownload(ctx: AppContext, req: Request, link: { projectId: number; zipPath: string }): void {
  inBackground(ctx, "a download", async () => {
    const recipient = await recipientOfRequest(ctx, req, link.zipPath);
    if (recipient) await markDownloaded(ctx, recipient.id, nowIso());
    const who = recipient && recipientLabel(recipient);
    await recordActivity(ctx, link.projectId, "download", { recipients: who ? [who] : [] });
    await notifyFirstDownload(ctx, link.projectId, recipient?.name ?? recipient?.email);
  });
}

/** One photo's own download (the viewer's Download). */
export function notePhotoDownload(
  ctx: AppContext,
  req: Request,
  link: { projectId: number; zipPath: string },
  photo: string,
): void {
  inBackground(ctx, "a photo download", async () => {
    const recipient = await recipientOfRequest(ctx, req, link.zipPath);
    await recordActivity(ctx, link.projectId, "photo_download", {
      photo,
      recipients: recipient ? [recipientLabel(recipient)] : [],
    });
  });
}

/** 'Regenerate link' by a staff member (after the new link is in place). */
export function noteLinkRegenerated(ctx: AppContext, projectId: number, user: User): void {
  inBackground(ctx, "a regenerated link", () =>
    recordActivity(ctx, projectId, "link_regenerated", { by: staffLabel(user) }),
  );
}
