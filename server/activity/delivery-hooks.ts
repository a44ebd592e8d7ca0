import type { IncomingMessage } from "node:http";
import type { AppContext } from "../context";
import { nowIso } from "../db/database";
import type { DownloadSize, User } from "../../api/types";
import { notifyFirstDownload } from "../notifications/notifications.service";
import { markDownloaded, recipientOfRequest } from "../sending/recipient-links.service";
import { countActivityToday, inBackground, recipientLabel, recordActivity, staffLabel } from "./activity.service";

/**
 * The delivery code's one-line hooks into the 'Delivery activity' timeline, each called where
 * that code already counts the event. None fails the client's request: a failure to record is
 * logged. Views and full downloads are already announced by the delivery code once counted, so
 * their hooks resolve once the row is written and the caller announces after both; the others
 * announce for themselves.
 */

/** The gallery was shown (awaited with countView, before the view is announced). */
export function noteView(ctx: AppContext, projectId: number): Promise<void> {
  return inBackground(ctx, "a page view", () => countActivityToday(ctx, projectId, "views", { announce: false }));
}

/** A wrong passcode (beside the failure the passcode limit counts). */
export function notePasscodeFailure(ctx: AppContext, projectId: number): void {
  void inBackground(ctx, "a passcode failure", () => countActivityToday(ctx, projectId, "passcode_failures"));
}

/**
 * A full download of the ZIP (awaited with countDownload, before the download is announced): on
 * the timeline with the recipient whose mail opened the page, whose reminder is then off; the
 * first one since publishing is mailed to the staff, behind it.
 */
export function noteZipDownload(
  ctx: AppContext,
  req: IncomingMessage,
  link: { projectId: number; zipPath: string },
  size: DownloadSize,
): Promise<void> {
  return inBackground(ctx, "a download", async () => {
    const recipient = await recipientOfRequest(ctx, req, link.zipPath);
    if (recipient) await markDownloaded(ctx, recipient, nowIso());
    const who = recipient && recipientLabel(recipient);
    const details = { recipients: who ? [who] : [], size };
    await recordActivity(ctx, link.projectId, "download", details, { announce: false });
    void inBackground(ctx, "a download notice", () =>
      notifyFirstDownload(ctx, link.projectId, recipient?.name ?? recipient?.email),
    );
  });
}

/** One photo's own download (the viewer's Download, or its web size): the name it was downloaded under. */
export function notePhotoDownload(
  ctx: AppContext,
  req: IncomingMessage,
  link: { projectId: number; zipPath: string },
  photo: string,
  size: DownloadSize,
): void {
  void inBackground(ctx, "a photo download", async () => {
    const recipient = await recipientOfRequest(ctx, req, link.zipPath);
    await recordActivity(ctx, link.projectId, "photo_download", {
      photo,
      size,
      recipients: recipient ? [recipientLabel(recipient)] : [],
    });
  });
}

/** 'Regenerate link' by a staff member (after the new link is in place). */
export function noteLinkRegenerated(ctx: AppContext, projectId: number, user: User): void {
  void inBackground(ctx, "a regenerated link", () =>
    recordActivity(ctx, projectId, "link_regenerated", { by: staffLabel(user) }),
  );
}
