import type { IncomingMessage } from "node:http";
import type { Request, Response } from "express";
import type { Db } from "../db/database";
import type { DeliveryLink } from "./delivery.repository";
import { cookieValues } from "../http/cookies";
import { arrivedOverHttps } from "../http/security";
import { cookieSignature, isCookieSignature } from "../http/signed-cookie";

export const PASSCODE_COOKIE = "photodrop_delivery";
const SECRET_NAME = "delivery_cookie_key";
/** A link without an expiry keeps its cookie this long. */
const DEFAULT_LIFETIME_SECONDS = 30 * 24 * 3600;

const seconds = (ms: number) => Math.floor(ms / 1000);

/**
 * The signature covers the token (a new link needs the passcode again) and the passcode's hash
 * (a new passcode does too) as well as the cookie's own expiry, so none can be edited client-side.
 */
const signedFields = (link: DeliveryLink, exp: number) => [link.token, link.passcodeHash ?? "", exp];

/** Whether the request carries a cookie this server signed for this link and passcode, still within its life. */
export async function hasValidCookie(
  db: Db,
  req: IncomingMessage,
  link: DeliveryLink,
  now = Date.now(),
): Promise<boolean> {
  for (const value of cookieValues(req, PASSCODE_COOKIE)) {
    const match = /^(\d{1,12})\.([A-Za-z0-9_-]{43})$/.exec(value);
    if (!match || Number(match[1]) <= seconds(now)) continue;
    if (await isCookieSignature(db, SECRET_NAME, signedFields(link, Number(match[1])), match[2])) return true;
  }
  return false;
}

/**
 * Sets the cookie for the page and its files (`/d/<token>`) and for the ZIP's public link
 * (`/published/<token>.zip`); it lives as long as the link does.
 */
export async function setPasscodeCookie(
  db: Db,
  req: Request,
  res: Response,
  link: DeliveryLink,
  now = Date.now(),
): Promise<void> {
  const linkEnds = link.expiresAt ? new Date(link.expiresAt).getTime() : now + DEFAULT_LIFETIME_SECONDS * 1000;
  const exp = seconds(linkEnds);
  const value = `${exp}.${await cookieSignature(db, SECRET_NAME, signedFields(link, exp))}`;
  const options = {
    httpOnly: true,
    sameSite: "lax" as const,
    secure: arrivedOverHttps(req, res),
    expires: new Date(exp * 1000),
    encode: String,
  };
  res.cookie(PASSCODE_COOKIE, value, { ...options, path: `/d/${link.token}` });
  res.cookie(PASSCODE_COOKIE, value, { ...options, path: `/published/${link.token}.zip` });
}
