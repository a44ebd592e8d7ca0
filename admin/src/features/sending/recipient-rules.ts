import { oneLineProblem } from "../../lib/one-line";
import { t } from "../../i18n";

/**
 * An address the dialog accepts: one mailbox, no name, no spaces or line breaks (the server
 * checks again, strictly). Answers the message to show, or null.
 */
export function addressError(value: string, chosen: string[]): string | null {
  const email = value.trim();
  if (!email) return t("sending.typeAnAddress");
  if (email.length > 254 || !/^[^\s@<>(),;:"[\]\\]+@[^\s@<>(),;:"[\]\\]+\.[^\s@<>(),;:"[\]\\]+$/.test(email))
    return t("sending.invalidEmail");
  if (chosen.some((other) => other.toLowerCase() === email.toLowerCase())) return t("sending.alreadyListed");
  return null;
}

/** How many mails a send makes: the ticked contacts and the added addresses. */
export const recipientCount = (contactIds: number[], emails: string[]) => contactIds.length + emails.length;

/** A subject is a mail header: one line, no control characters (the server's rule); blank is left to the Send button. */
export const subjectError = (subject: string): string | null => oneLineProblem("sending.subject", subject.trim());
