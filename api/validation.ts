/**
 * Rules the server and the web app both apply, written once: the server's schemas refuse what
 * they refuse, and the web app says so before sending. Plain code, safe in either.
 */

export const INVALID_EMAIL = "Invalid email format";
export const INVALID_PHONE = "A phone number may hold only digits, spaces and + ( ) - . /";
export const EXPIRY_NOT_IN_FUTURE = "The expiry must be in the future";

// One label of a domain name: letters, digits and inner hyphens, at most 63 characters.
const LABEL = "[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?";
// The local part as browsers' <input type="email"> takes it (no quotes, no spaces), then a domain
// of at least two labels: `mia@` and `mia@studio` are not addresses mail can be sent to.
const EMAIL = new RegExp(`^[a-z0-9.!#$%&'*+/=?^_\`{|}~-]+@${LABEL}(?:\\.${LABEL})+$`, "i");

/** An address mail can be delivered to, as typed (trim it first); at most 320 characters. */
export function isEmailAddress(value: string): boolean {
  return value.length <= 320 && EMAIL.test(value);
}

// Digits with the usual separators, an optional leading +, and an optional extension ("x 12", "ext. 12").
const PHONE = /^\+?[0-9 ()./-]*[0-9][0-9 ()./-]*(?:\s*(?:x|ext\.?)\s*[0-9]{1,6})?$/i;

/** A phone number as people write it: printable phone characters with at least three digits. */
export function isPhoneNumber(value: string): boolean {
  return PHONE.test(value) && (value.match(/[0-9]/g)?.length ?? 0) >= 3;
}

/** An ISO instant later than now. */
export function isInFuture(iso: string, now = Date.now()): boolean {
  const at = Date.parse(iso);
  return !Number.isNaN(at) && at > now;
}
