import type { IncomingMessage } from "node:http";
import type { Request, Response } from "express";
import { cookieValues } from "../http/cookies";
import { arrivedOverHttps } from "../http/security";

export const RECIPIENT_COOKIE = "photodrop_recipient";
/** A recipient's key in its link: 128 random bits. */
export const LINK_KEY = /^[A-Za-z0-9_-]{22}$/;
/** A link without an expiry keeps its cookie this long. */
const DEFAULT_LIFETIME_MS = 90 * 24 * 3600 * 1000;

/**
 * Remembers which recipient's mail opened the page, for the page and its files only (`/d/<token>`),
 * so the ZIP fetched from it can be put down to that recipient. It ends with the link (`link.endsAt`,
 * ms since the epoch, Infinity for a link that never expires) and is `Secure` whenever the request
 * arrived over HTTPS as the security headers judged it, like every other cookie.
 */
export function setRecipientCookie(
  req: Request,
  res: Response,
  link: { token: string; endsAt: number },
  key: string,
  now = Date.now(),
): void {
  res.cookie(RECIPIENT_COOKIE, key, {
    httpOnly: true,
    sameSite: "lax",
    secure: arrivedOverHttps(req, res),
    path: `/d/${link.token}`,
    expires: new Date(Number.isFinite(link.endsAt) ? link.endsAt : now + DEFAULT_LIFETIME_MS),
    encode: String,
  });
}

export function recipientKeysOf(req: IncomingMessage): string[] {
  return cookieValues(req, RECIPIENT_COOKIE).filter((key) => LINK_KEY.test(key));
}
