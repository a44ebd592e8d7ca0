import crypto from "node:crypto";
import { Semaphore } from "../storage/semaphore";
import type { AppContext } from "../context";
import { nowIso } from "../db/database";
import { ConflictError, NotFoundError, TooManyRequestsError, ValidationError } from "../http/errors";
import { createRateLimiter, type RateLimiter } from "../http/rate-limit";
import { verifyPassword } from "../auth/passwords";
import type { Mailer } from "../mail/mailer";
import { clientMailBrand } from "../mail/client-brand";
import { sendLinkMail } from "./link-mail";
import { branding } from "../studio/studio.service";
import { mailLanguage } from "../i18n/choose-language";
import { recordActivity, recipientLabel, staffLabel } from "../activity/activity.service";
import { mailAddresses, mailbox, unsubscribedSet } from "../unsubscribe/unsubscribe.service";
import type { SendResult, SendingDraft, User } from "../../api/types";
import { defaultTexts, oneLine } from "./client-mail";
import { isMailableAddress, type SendInput } from "./sending.schema";
import {
  contactsByIds,
  contactsWithAddress,
  findProjectForMail,
  countHoldersOfLink,
  insertRecipient,
  type ProjectForMail,
} from "./sending.repository";

export const NOT_PUBLISHED = "Publish the project before sending it";
export const LINK_EXPIRED = "The link has expired: set a later expiry before sending it";
export const NO_MAIL_SERVER = "Mail is not set up: set SMTP_URL and MAIL_FROM to send e-mail";
export const UNSUBSCRIBED = "Unsubscribed: this address asked for no more e-mails";
export const NOT_AN_ADDRESS = "Not a valid e-mail address";

/** Where the links in a client's mail point, or why no link could reach the client (see client-link-origin.ts). */
export type LinkOrigin = { origin: string } | { problem: string };

async function projectOrNotFound(ctx: AppContext, id: number): Promise<ProjectForMail> {
  const project = await findProjectForMail(ctx.db, id);
  if (!project) throw new NotFoundError("Project not found");
  return project;
}

/** Why nothing can be sent for the project now, or null. */
function whyNotSendable(ctx: AppContext, project: ProjectForMail, links: LinkOrigin): string | null {
  if (!project.published || !project.zipPath) return NOT_PUBLISHED;
  if (project.expiresAt && new Date(project.expiresAt).getTime() <= Date.now()) return LINK_EXPIRED;
  if (!ctx.config.mail.smtpUrl) return NO_MAIL_SERVER;
  return "problem" in links ? links.problem : null;
}

export async function sendingDraft(ctx: AppContext, projectId: number, links: LinkOrigin): Promise<SendingDraft> {
  const project = await projectOrNotFound(ctx, projectId);
  const studio = await branding(ctx);
  const contacts = project.clientId ? await contactsWithAddress(ctx.db, project.clientId) : [];
  const unsubscribed = await unsubscribedSet(
    ctx,
    contacts.map((c) => c.email),
  );
  return {
    ...defaultTexts(studio.name, project.name, mailLanguage({ project: project.language, studio })),
    contacts: contacts.map((c) => ({
      id: c.id,
      name: c.name,
      email: c.email,
      unsubscribed: unsubscribed.has(mailbox(c.email)),
      valid: isMailableAddress(c.email),
    })),
    hasPasscode: project.passcodeHash !== null,
    linkHolders: await countHoldersOfLink(ctx.db, projectId),
    problem: whyNotSendable(ctx, project, links),
  };
}

interface Recipient {
  email: string;
  name: string | null;
}

/** The contacts chosen (they must be the project client's) and the addresses typed, each mailbox once. */
async function recipientsOf(ctx: AppContext, project: ProjectForMail, input: SendInput) {
  const contacts = await contactsByIds(ctx.db, [...new Set(input.contactIds)]);
  const foreign = input.contactIds.find((id) => !contacts.some((c) => c.id === id && c.clientId === project.clientId));
  if (foreign !== undefined)
    throw new ValidationError("Choose contacts of this project's client", {
      contactIds: `Contact ${foreign} is not a contact of this project's client`,
    });
  const chosen: Recipient[] = [
    ...contacts.map((c) => ({ email: c.email.trim(), name: oneLine(c.name) || null })),
    ...input.emails.map((email) => ({ email, name: null })),
  ];
  const seen = new Set<string>();
  return chosen.filter((r) => !seen.has(mailbox(r.email)) && seen.add(mailbox(r.email)));
}

const limiters = new WeakMap<AppContext, { perUser: RateLimiter; perProject: RateLimiter }>();

/**
 * Sends per staff member and per project in an hour, counted in the database like sign-ins, before
 * anything is sent (one atomic count each: a burst gets no more through than the budgets).
 */
async function consumeSendBudget(ctx: AppContext, user: User, projectId: number): Promise<void> {
  let limits = limiters.get(ctx);
  if (!limits) {
    const { perUser, perProject } = ctx.config.sendLimit;
    limits = {
      perUser: createRateLimiter({ db: ctx.db, limit: perUser, windowSeconds: 3600 }),
      perProject: createRateLimiter({ db: ctx.db, limit: perProject, windowSeconds: 3600 }),
    };
    limiters.set(ctx, limits);
  }
  try {
    await limits.perUser.consume(`send|user|${user.uid}`);
    await limits.perProject.consume(`send|project|${projectId}`);
  } catch (err) {
    if (!(err instanceof TooManyRequestsError)) throw err;
    const retryAfter = Number(err.headers?.["Retry-After"] ?? 60);
    throw new TooManyRequestsError(retryAfter, "Too many mails sent in the last hour, please try again later");
  }
}

/** What the dialog shows of a mail the server did not take: the SMTP answer, never a stack. */
function whyNotSent(err: unknown): string {
  const { code, response } = err as { code?: string; response?: string };
  if (code === "ECONNECTION" || code === "ETIMEDOUT" || code === "ESOCKET" || code === "EDNS")
    return "The mail server could not be reached";
  if (response) return `The mail server refused it: ${oneLine(response).slice(0, 300)}`;
  return "The mail could not be sent";
}

const newLinkKey = () => crypto.randomBytes(16).toString("base64url");

/** Mails sent at once: enough that fifty recipients fit well within the web app's 30 s timeout. */
const SEND_CONCURRENCY = 4;

type Outcome = { sent: true } | { sent: false; message: string } | { skipped: string };

/**
 * One mail per recipient with that recipient's own link, a few at a time: a recipient the mail
 * server refuses is reported and the others still get theirs. Unsubscribed and unusable
 * addresses are skipped.
 */
export async function sendToClient(
  ctx: AppContext,
  mailer: Mailer,
  user: User,
  projectId: number,
  input: SendInput,
  links: LinkOrigin,
): Promise<SendResult> {
  const project = await projectOrNotFound(ctx, projectId);
  const problem = whyNotSendable(ctx, project, links);
  if (problem || !("origin" in links) || !project.zipPath) throw new ConflictError(problem ?? NOT_PUBLISHED);
  const { origin } = links;
  const zipPath = project.zipPath;
  if (input.passcode !== undefined) {
    if (!project.passcodeHash)
      throw new ValidationError("This link has no passcode", { passcode: "This link has no passcode" });
    if (!(await verifyPassword(input.passcode, project.passcodeHash)))
      throw new ValidationError("This is not the link's passcode", { passcode: "This is not the link's passcode" });
  }
  const recipients = await recipientsOf(ctx, project, input);
  await consumeSendBudget(ctx, user, projectId);
  const addresses = await mailAddresses(
    ctx,
    recipients.filter((r) => isMailableAddress(r.email)).map((r) => r.email),
  );
  const brand = await clientMailBrand(ctx, project);

  const sending = new Semaphore(SEND_CONCURRENCY);
  const outcomes = await Promise.all(
    recipients.map((recipient) =>
      sending.run(async (): Promise<Outcome> => {
        const address = addresses.get(mailbox(recipient.email));
        if (!address) return { skipped: NOT_AN_ADDRESS };
        if (address.unsubscribed) return { skipped: UNSUBSCRIBED };
        const linkKey = newLinkKey();
        try {
          const holder = { email: recipient.email, name: recipient.name ?? null, linkKey, linkOrigin: origin };
          const texts = { subject: input.subject, message: input.message };
          const mail = { project: { ...project, zipPath }, holder, brand, texts, unsubscribeToken: address.token };
          await sendLinkMail(ctx, { ...mail, passcode: input.passcode, replyTo: user.email }, mailer);
        } catch (err) {
          ctx.logger.warn(
            { projectId, to: recipient.email, err: whyNotSent(err) },
            "a client's e-mail could not be sent",
          );
          return { sent: false, message: whyNotSent(err) };
        }
        // The mail is out whatever happens next: a row that cannot be written costs its reminder, not the send.
        const row = {
          projectId,
          ...recipient,
          linkKey,
          zipPath,
          linkOrigin: origin,
          sentBy: user.uid,
          sentAt: nowIso(),
        };
        await insertRecipient(ctx.db, row).catch((err: unknown) =>
          ctx.logger.error({ err, projectId }, "could not record a recipient"),
        );
        return { sent: true };
      }),
    ),
  );

  const result: SendResult = { sent: [], failed: [], skipped: [] };
  const sentLabels: string[] = [];
  const failedLabels: string[] = [];
  recipients.forEach((recipient, i) => {
    const outcome = outcomes[i];
    if ("skipped" in outcome) return result.skipped.push({ email: recipient.email, reason: outcome.skipped });
    if (outcome.sent) {
      result.sent.push(recipient.email);
      return sentLabels.push(recipientLabel(recipient));
    }
    result.failed.push({ email: recipient.email, message: outcome.message });
    failedLabels.push(recipientLabel(recipient));
  });
  if (sentLabels.length + failedLabels.length > 0)
    await recordActivity(ctx, projectId, "sent", {
      by: staffLabel(user),
      recipients: sentLabels,
      failed: failedLabels,
    });
  return result;
}
