/** What registration and sign-in share. */

/** How long a ceremony's challenge may be answered; the browser's own prompt gives up sooner. */
export const CEREMONY_SECONDS = 5 * 60;
export const BROWSER_TIMEOUT_MS = 2 * 60 * 1000;
export const RP_NAME = "Photodrop";

/** The WebAuthn user handle: the account's uid, which carries no personal data. */
export const userHandleOf = (uid: string): string => Buffer.from(uid, "utf8").toString("base64url");

/** The library's messages quote the challenges they compared; the log keeps the words only. */
export const withoutQuotedValues = (message: string) => message.replace(/"[^"]*"/g, '"…"');
