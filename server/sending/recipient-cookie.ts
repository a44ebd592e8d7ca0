import type { IncomingMessage } from "node:http";
import type { Request, Response } from "express";
import { cookieValues } from "../http/cookies";

export const RECIPIENT_COOKIE = "photodrop_recipient";
/** A recipient's key in its link: 128 random bits. */
export const LINK_KEY = /^[A-Za-z0-9_-]{22}$/;
const LIFETIME_MS = 90 * 24 * 3600 * 1000;

/**
 * Remembers which recipient's mail opened the page, for the page and its files only (`/d/<token>`),
 * so the ZIP fetched from it can be put down to that recipient.
 */
export function setRecipientCookie(req: Request, res: Response, token: string, key: string): void {
  res.cookie(RECIPIENT_COOKIE, key, {
    httpOnly: true,
    sameSite: "lax",
    secure: req.secure,
    path: `/d/${token}`,
    maxAge: LIFETIME_MS,
    encode: String,
  });
}

export function recipientKeysOf(req: IncomingMessage): string[] {
  return cookieValues(req, RECIPIENT_COOKIE).filter((key) => LINK_KEY.test(key));
}
