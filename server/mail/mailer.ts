import nodemailer from "nodemailer";
import type { Config } from "../config";
import type { Logger } from "../logger";

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
}

export interface Mailer {
  send(message: MailMessage): Promise<void>;
}

/**
 * SMTP when SMTP_URL is set; otherwise the message is written to the log at info level, because
 * on a machine without mail the operator needs the link in it (it never holds a password).
 */
export function createMailer(mail: Config["mail"], logger: Logger): Mailer {
  if (!mail.smtpUrl) {
    return {
      async send(message) {
        logger.info(
          { mail: { to: message.to, subject: message.subject, body: message.text } },
          "e-mail (no SMTP_URL set, written to the log instead)",
        );
      },
    };
  }
  const transport = nodemailer.createTransport(mail.smtpUrl);
  return {
    async send(message) {
      await transport.sendMail({ from: mail.from, to: message.to, subject: message.subject, text: message.text });
      logger.info({ to: message.to, subject: message.subject }, "e-mail sent");
    },
  };
}
