import type { IncomingMessage } from "node:http";
import type { AppContext } from "../context";
import { zipPathFor } from "../delivery/delivery.repository";
import { recipientKeysOf } from "./recipient-cookie";
import { findRecipientOfLink, markRecipientDownloaded, type LinkRecipient } from "./sending.repository";

/** The recipient whose mail carried `key`, for the link whose token it came with. */
export async function recipientOfKey(ctx: AppContext, key: string, token: string): Promise<LinkRecipient | undefined> {
  return findRecipientOfLink(ctx.db, key, zipPathFor(token));
}

/** The recipient whose mail opened this browser's page of the link, if its cookie says. */
export async function recipientOfRequest(
  ctx: AppContext,
  req: IncomingMessage,
  zipPath: string,
): Promise<LinkRecipient | undefined> {
  for (const key of recipientKeysOf(req)) {
    const recipient = await findRecipientOfLink(ctx.db, key, zipPath);
    if (recipient) return recipient;
  }
  return undefined;
}

/** The recipient downloaded everything: no reminder for that address on this project, whichever of its mails it came from. */
export async function markDownloaded(ctx: AppContext, recipient: LinkRecipient, at: string): Promise<void> {
  await markRecipientDownloaded(ctx.db, recipient.projectId, recipient.email, at);
}
