import crypto from "node:crypto";
import type { AppContext } from "../context";
import { NotFoundError } from "../http/errors";
import {
  addressesFor,
  findAddressByToken,
  markUnsubscribed,
  unsubscribedAmong,
  type MailAddress,
} from "./unsubscribe.repository";

export const UNSUBSCRIBE_TOKEN = /^[A-Za-z0-9_-]{22,64}$/;

/** One mailbox however it was typed: the key of unsubscribes. */
export const mailbox = (email: string) => email.trim().toLowerCase();

/** The unsubscribe link of an address's token; a mail in another language than English says which, for its page. */
export const unsubscribeUrl = (origin: string, token: string, lang = "en") =>
  `${origin}/unsubscribe/${token}${lang === "en" ? "" : `?lang=${encodeURIComponent(lang)}`}`;

/** Each address's unsubscribe token and state, by mailbox; addresses never mailed before get a token now. */
export async function mailAddresses(ctx: AppContext, emails: string[]): Promise<Map<string, MailAddress>> {
  const rows = await addressesFor(ctx.db, [...new Set(emails.map(mailbox))], () =>
    crypto.randomBytes(16).toString("base64url"),
  );
  return new Map(rows.map((row) => [row.email, row]));
}

export async function unsubscribedSet(ctx: AppContext, emails: string[]): Promise<Set<string>> {
  return unsubscribedAmong(ctx.db, [...new Set(emails.map(mailbox))]);
}

export async function addressOfToken(ctx: AppContext, token: string): Promise<MailAddress> {
  const address = UNSUBSCRIBE_TOKEN.test(token) ? await findAddressByToken(ctx.db, token) : undefined;
  if (!address) throw new NotFoundError("This unsubscribe link is not valid");
  return address;
}

export async function unsubscribe(ctx: AppContext, token: string): Promise<MailAddress> {
  const address = await addressOfToken(ctx, token);
  await markUnsubscribed(ctx.db, token);
  ctx.logger.info("a client address unsubscribed");
  return { ...address, unsubscribed: true };
}
