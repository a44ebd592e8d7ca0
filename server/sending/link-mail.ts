import type { AppContext } from "../context";
import { mailerOf, type Mailer } from "../mail/mailer";
import { unsubscribeUrl } from "../unsubscribe/unsubscribe.service";
import { oneLine, renderClientMail, type ClientMailView } from "./client-mail";
import { translator } from "../i18n/i18n";
import type { LinkHolder, ProjectForMail } from "./sending.repository";

/** A published project (its link's ZIP known) as a mail to its client shows it. */
type LinkMailProject = Pick<ProjectForMail, "name" | "photoCount" | "totalSize" | "expiresAt" | "passcodeHash"> & {
  zipPath: string;
};

/** A recipient's own link to the gallery of `published/<token>.zip`: its page, with their key. */
const recipientLink = (origin: string, zipPath: string, linkKey: string) =>
  `${origin}/d/${zipPath.replace(/^published\/|\.zip$/g, "")}?r=${linkKey}`;

/**
 * Mails one recipient their own link to the gallery (the first mail, a reminder, a notice that the
 * gallery was updated) in the studio's brand, with their unsubscribe link. A link with a passcode
 * gets the passcode itself when the sender included it, else a line saying to use the one given.
 */
export async function sendLinkMail(
  ctx: AppContext,
  mail: {
    project: LinkMailProject;
    holder: Pick<LinkHolder, "email" | "name" | "linkKey" | "linkOrigin">;
    brand: ClientMailView["brand"];
    texts: { subject: string; message: string };
    unsubscribeToken: string;
    passcode?: string;
    replyTo?: string;
  },
  mailer: Mailer = mailerOf(ctx),
): Promise<void> {
  const { project, holder, brand, texts, passcode } = mail;
  const unsubscribe = unsubscribeUrl(holder.linkOrigin, mail.unsubscribeToken, brand.language);
  const tr = translator(brand.language);
  await mailer.send({
    to: holder.name ? { name: oneLine(holder.name), address: holder.email } : holder.email,
    subject: texts.subject,
    ...renderClientMail({
      tr,
      brand,
      projectName: project.name,
      photoCount: project.photoCount,
      totalSize: project.totalSize,
      expiresAt: project.expiresAt,
      message: texts.message,
      link: recipientLink(holder.linkOrigin, project.zipPath, holder.linkKey),
      passcode,
      passcodeHint: project.passcodeHash !== null && !passcode,
      unsubscribeUrl: unsubscribe,
    }),
    fromName: oneLine(brand.name),
    replyTo: mail.replyTo,
    unsubscribeUrl: unsubscribe,
    // The List-Unsubscribe header's comment: the unsubscribe page's button, in the mail's language.
    unsubscribeLabel: tr.t("unsubscribe.button"),
  });
}
