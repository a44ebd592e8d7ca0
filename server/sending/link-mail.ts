import type { AppContext } from "../context";
import { mailerOf } from "../mail/mailer";
import { unsubscribeUrl } from "../unsubscribe/unsubscribe.service";
import { oneLine, renderClientMail, type ClientMailView } from "./client-mail";

/** A published project as a mail to its client shows it. */
export interface LinkMailProject {
  name: string;
  photoCount: number;
  totalSize: number;
  expiresAt: string | null;
  zipPath: string;
  passcodeHash: string | null;
}

/** Someone who was sent the link: their own link's key, and the address it was sent from. */
export interface LinkHolder {
  name: string | null;
  email: string;
  linkKey: string;
  linkOrigin: string;
}

/**
 * Mails one recipient their own link to the gallery again (a reminder, a notice that the gallery
 * was updated) in the studio's brand, with their unsubscribe link.
 */
export async function sendLinkMail(
  ctx: AppContext,
  mail: {
    project: LinkMailProject;
    holder: LinkHolder;
    brand: ClientMailView["brand"];
    texts: { subject: string; message: string };
    unsubscribeToken: string;
  },
): Promise<void> {
  const { project, holder, brand, texts } = mail;
  const unsubscribe = unsubscribeUrl(holder.linkOrigin, mail.unsubscribeToken);
  const token = project.zipPath.replace(/^published\/|\.zip$/g, "");
  await mailerOf(ctx).send({
    to: holder.name ? { name: oneLine(holder.name), address: holder.email } : holder.email,
    subject: texts.subject,
    ...renderClientMail({
      brand,
      projectName: project.name,
      photoCount: project.photoCount,
      totalSize: project.totalSize,
      expiresAt: project.expiresAt,
      message: texts.message,
      link: `${holder.linkOrigin}/d/${token}?r=${holder.linkKey}`,
      passcodeHint: project.passcodeHash !== null,
      unsubscribeUrl: unsubscribe,
    }),
    fromName: oneLine(brand.name),
    unsubscribeUrl: unsubscribe,
  });
}
