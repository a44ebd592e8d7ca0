import type { AppContext } from "../context";
import { mailerOf } from "../mail/mailer";
import { unsubscribeUrl } from "../unsubscribe/unsubscribe.service";
import { oneLine, renderClientMail, type ClientMailView } from "./client-mail";
import type { LinkHolder, ProjectForMail } from "./sending.repository";

/** A published project (its link's ZIP known) as a mail to its client shows it. */
type LinkMailProject = Pick<ProjectForMail, "name" | "photoCount" | "totalSize" | "expiresAt" | "passcodeHash"> & {
  zipPath: string;
};

/** A recipient's own link to the gallery of `published/<token>.zip`: its page, with their key. */
export const recipientLink = (origin: string, zipPath: string, linkKey: string) =>
  `${origin}/d/${zipPath.replace(/^published\/|\.zip$/g, "")}?r=${linkKey}`;

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
      link: recipientLink(holder.linkOrigin, project.zipPath, holder.linkKey),
      passcodeHint: project.passcodeHash !== null,
      unsubscribeUrl: unsubscribe,
    }),
    fromName: oneLine(brand.name),
    unsubscribeUrl: unsubscribe,
  });
}
