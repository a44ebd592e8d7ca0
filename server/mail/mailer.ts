import nodemailer from "nodemailer";
import type { Config } from "../config";
import type { Logger } from "../logger";
import { workUnderWay } from "../work-under-way";

export interface MailMessage {
  /** An address, or a name and an address (the name is encoded by nodemailer, never pasted into the header). */
  to: string | { name: string; address: string };
  subject: string;
  text: string;
  /** An HTML alternative to `text` (the text part stays for mail programs that show no HTML). */
  html?: string;
  /** Shown as the sender's name in place of MAIL_FROM's own (the address stays MAIL_FROM's). */
  fromName?: string;
  replyTo?: string;
  /**
   * This address's one-click unsubscribe URL: `List-Unsubscribe` (nodemailer's `list` option) and
   * `List-Unsubscribe-Post: List-Unsubscribe=One-Click` (RFC 8058), which `list` cannot express.
   */
  unsubscribeUrl?: string;
  /** The header's comment, `<url> (Abbestellen)`, in the mail's language; none: the URL alone. */
  unsubscribeLabel?: string;
  /** Images the HTML shows inline (`<img src="cid:…">`): the studio's logo, a gallery's cover. */
  attachments?: Array<{ cid: string; filename: string; contentType: string; content: Buffer }>;
}

export interface Mailer {
  send(message: MailMessage): Promise<void>;
}

const underWay = workUnderWay<Config["mail"]>();

/** Counts `work` (a send, or the preparing of sends after an answer) as mail under way for the app with this mail configuration until it ends. */
export function mailUnderWay<T>(mail: Config["mail"], work: Promise<T>): Promise<T> {
  underWay.add(
    mail,
    work.then(
      () => {},
      () => {},
    ),
  );
  return work;
}

/** Resolves once every mail under way has ended, sent or failed: before the app closes, and in tests that check none went out. */
export function mailsSettled(ctx: { config: Config }): Promise<void> {
  return underWay.settled(ctx.config.mail);
}

const addressOf = (to: MailMessage["to"]) => (typeof to === "string" ? to : to.address);

/** MAIL_FROM with another display name: `Studio <no-reply@…>`. */
function fromWithName(from: string, name: string | undefined) {
  if (!name) return from;
  const address = /<([^<>]+)>\s*$/.exec(from)?.[1] ?? from.trim();
  return { name, address };
}

/**
 * SMTP when SMTP_URL is set; otherwise the message is written to the log at info level, because
 * on a machine without mail the operator needs the link in it (it never holds a password).
 */
export function createMailer(mail: Config["mail"], logger: Logger): Mailer {
  const deliver = mail.smtpUrl ? smtpSender(mail, mail.smtpUrl, logger) : logSender(logger);
  return { send: (message) => mailUnderWay(mail, deliver(message)) };
}

function logSender(logger: Logger) {
  return async (message: MailMessage) => {
    logger.info(
      { mail: { to: addressOf(message.to), subject: message.subject, body: message.text } },
      "e-mail (no SMTP_URL set, written to the log instead)",
    );
  };
}

/**
 * Text for a header's `(comment)`, which nodemailer writes as given when it is ASCII: on one line
 * (a line break would start a header of its own), without the `(`, `)` and `\` that end or escape it.
 */
export const headerComment = (text: string) =>
  text
    .replace(/[\u0000-\u001f\u007f()\\]+/g, " ")
    .replace(/ {2,}/g, " ")
    .trim();

function smtpSender(mail: Config["mail"], smtpUrl: string, logger: Logger) {
  const transport = nodemailer.createTransport(smtpUrl);
  return async (message: MailMessage) => {
    const unsubscribe = message.unsubscribeUrl;
    const comment = message.unsubscribeLabel && headerComment(message.unsubscribeLabel);
    await transport.sendMail({
      from: fromWithName(mail.from, message.fromName),
      to: message.to,
      replyTo: message.replyTo,
      subject: message.subject,
      text: message.text,
      html: message.html,
      ...(message.attachments?.length && { attachments: message.attachments }),
      ...(unsubscribe && {
        list: { unsubscribe: comment ? { url: unsubscribe, comment } : unsubscribe },
        headers: { "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" },
      }),
    });
    logger.info({ to: addressOf(message.to), subject: message.subject }, "e-mail sent");
  };
}

const shared = new WeakMap<object, Mailer>();

/** One mailer (one SMTP transport) per app context, for the work that mails outside a router: jobs and hooks. */
export function mailerOf(ctx: { config: Config; logger: Logger }): Mailer {
  let mailer = shared.get(ctx);
  if (!mailer) shared.set(ctx, (mailer = createMailer(ctx.config.mail, ctx.logger)));
  return mailer;
}
