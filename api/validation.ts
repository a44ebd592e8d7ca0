/**
 * Rules the server and the web app both apply, written once: the server's schemas refuse what
 * they refuse, and the web app says so before sending. Plain code, safe in either.
 */

export const INVALID_EMAIL = "Invalid email format";
export const INVALID_PHONE = "A phone number may hold only digits, spaces and + ( ) - . /";
export const EXPIRY_NOT_IN_FUTURE = "The expiry must be in the future";
export const PASSCODE_ONLY_SPACES = "Passcode must have a character other than a space";

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

/** A phone number as people write it: printable phone characters with at least three digits, on one line. */
export function isPhoneNumber(value: string): boolean {
  // The extension's `\s` would otherwise let a line break through.
  return isSingleLine(value) && PHONE.test(value) && (value.match(/[0-9]/g)?.length ?? 0) >= 3;
}

/** An ISO instant later than now. */
export function isInFuture(iso: string, now = Date.now()): boolean {
  const at = Date.parse(iso);
  return !Number.isNaN(at) && at > now;
}

// Line breaks (CR, LF, NEL U+0085, the line and paragraph separators U+2028/U+2029), every other C0
// and C1 control (tab among them) and DEL, and the bidi embeddings, overrides and isolates
// (U+202A-U+202E, U+2066-U+2069) that reorder what follows them. The plain marks LRM and RLM stay:
// they reorder nothing on their own and right-to-left names may need them.
const NOT_ONE_LINE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

/** A single-line text value (a name, a subject, a passcode): nothing in it can start a line or reorder one. */
export function isSingleLine(value: string): boolean {
  return !NOT_ONE_LINE.test(value);
}

/** The message for a single-line field that is not: `Name must be on one line, without control characters`. */
export const notOnOneLine = (field: string) => `${field} must be on one line, without control characters`;

/** What is wrong with a single-line field's value, or null. */
export const singleLineProblem = (field: string, value: string): string | null =>
  isSingleLine(value) ? null : notOnOneLine(field);
