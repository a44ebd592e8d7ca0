import type { Db } from "../db/database";
import { nowIso } from "../db/database";

export interface MailAddress {
  email: string;
  token: string;
  unsubscribed: boolean;
}

const toAddress = (r: { email: string; unsubscribe_token: string; unsubscribed_at: string | null }): MailAddress => ({
  email: r.email,
  token: r.unsubscribe_token,
  unsubscribed: r.unsubscribed_at !== null,
});

/**
 * The rows of these (lower-cased) addresses, each created with the token `newToken` makes when
 * it has none yet: an address keeps one token for good, so every mail it got unsubscribes it.
 */
export async function addressesFor(db: Db, emails: string[], newToken: () => string): Promise<MailAddress[]> {
  if (emails.length === 0) return [];
  const now = nowIso();
  await db("mail_addresses")
    .insert(emails.map((email) => ({ email, unsubscribe_token: newToken(), created_at: now })))
    .onConflict("email")
    .ignore();
  return (await db("mail_addresses").whereIn("email", emails).select()).map(toAddress);
}

/** Which of these (lower-cased) addresses have unsubscribed. */
export async function unsubscribedAmong(db: Db, emails: string[]): Promise<Set<string>> {
  if (emails.length === 0) return new Set();
  const rows = await db("mail_addresses").whereIn("email", emails).whereNotNull("unsubscribed_at").pluck("email");
  return new Set(rows as string[]);
}

export async function findAddressByToken(db: Db, token: string): Promise<MailAddress | undefined> {
  const row = await db("mail_addresses").where({ unsubscribe_token: token }).first();
  return row && toAddress(row);
}

/** Marks the address unsubscribed (once: a second click keeps the first time). */
export async function markUnsubscribed(db: Db, token: string): Promise<void> {
  await db("mail_addresses")
    .where({ unsubscribe_token: token })
    .whereNull("unsubscribed_at")
    .update({ unsubscribed_at: nowIso() });
}
