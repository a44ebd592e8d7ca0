import type { AppContext } from "../context";
import { clientMailBrand } from "../mail/client-brand";
import { mailAddresses, mailbox } from "../unsubscribe/unsubscribe.service";
import { oneLine } from "./client-mail";
import { sendLinkMail } from "./link-mail";
import { translator } from "../i18n/i18n";
import type { Language } from "../i18n/languages";
import { findProjectForMail, holdersOfLink } from "./sending.repository";

/** What the mail to say the gallery was updated says; the link is the one the recipient already has. */
function updateNoticeTexts(studio: string, project: string, lang: Language) {
  const { t } = translator(lang);
  return {
    subject: oneLine(t("mail.updateSubject", { project })),
    message: t("mail.updateMessage", { studio, project }),
  };
}

/**
 * After a republish the client asked for: each address that was sent the link (and has not
 * unsubscribed) gets a short mail with its own link again. Without SMTP_URL nothing is sent. A
 * mail that fails is logged and the others still go. Never rejects.
 */
export async function notifyGalleryUpdated(ctx: AppContext, projectId: number): Promise<number> {
  try {
    if (!ctx.config.mail.smtpUrl) return 0;
    const project = await findProjectForMail(ctx.db, projectId);
    if (!project?.published || !project.zipPath) return 0;
    const holders = await holdersOfLink(ctx.db, projectId);
    if (holders.length === 0) return 0;
    const addresses = await mailAddresses(
      ctx,
      holders.map((h) => h.email),
    );
    const brand = await clientMailBrand(ctx, project);
    const studio = brand.name;
    const texts = updateNoticeTexts(studio, project.name, brand.language);
    const published = { ...project, zipPath: project.zipPath };
    let sent = 0;
    for (const holder of holders) {
      const address = addresses.get(mailbox(holder.email));
      if (!address || address.unsubscribed) continue;
      try {
        await sendLinkMail(ctx, { project: published, holder, brand, texts, unsubscribeToken: address.token });
        sent++;
      } catch (err) {
        ctx.logger.warn({ projectId, err: (err as Error).message }, "a gallery-updated mail could not be sent");
      }
    }
    ctx.logger.info({ projectId, sent }, "recipients told the gallery was updated");
    return sent;
  } catch (err) {
    ctx.logger.error({ err, projectId }, "could not tell recipients the gallery was updated");
    return 0;
  }
}
