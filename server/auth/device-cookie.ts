import crypto from "node:crypto";
import type { Request, Response } from "express";
import type { Db } from "../db/database";
import { cookieValues } from "../http/cookies";
import { arrivedOverHttps } from "../http/security";
import { cookieSignature, isCookieSignature } from "../http/signed-cookie";
import { SESSION_HEADER } from "./session-cookie";

/**
 * A browser that has signed in to an account: its sign-ins are held to a ceiling of their own
 * instead of the account-wide one, so failures from elsewhere never lock the owner out of it.
 */
export const DEVICE_COOKIE = "photodrop_device";
const SECRET_NAME = "device_cookie_key";
const LIFETIME_SECONDS = 365 * 24 * 3600;
const COOKIE_PATH = "/api/auth";
/** `uid.device.exp.signature`: the signature binds the account, the device's id and the cookie's expiry. */
const VALUE = /^([A-Za-z0-9_-]{1,64})\.([A-Za-z0-9_-]{16})\.(\d{1,12})\.([A-Za-z0-9_-]{43})$/;

const seconds = (ms: number) => Math.floor(ms / 1000);

/** The device id of a cookie this server signed for this account, still within its life; undefined without one. */
export async function knownDevice(db: Db, req: Request, uid: string, now = Date.now()): Promise<string | undefined> {
  for (const value of cookieValues(req, DEVICE_COOKIE)) {
    const match = VALUE.exec(value);
    if (!match || match[1] !== uid || Number(match[3]) <= seconds(now)) continue;
    if (await isCookieSignature(db, SECRET_NAME, [uid, match[2], Number(match[3])], match[4])) return match[2];
  }
  return undefined;
}

/**
 * Sets (or renews, keeping its id) the device cookie for the account a browser just signed in to;
 * API clients (without the browser's session header) get no cookie.
 */
export async function setDeviceCookie(
  db: Db,
  req: Request,
  res: Response,
  uid: string,
  device = crypto.randomBytes(12).toString("base64url"),
  now = Date.now(),
): Promise<void> {
  if (req.get(SESSION_HEADER) !== "cookie") return;
  const exp = seconds(now) + LIFETIME_SECONDS;
  res.cookie(DEVICE_COOKIE, `${uid}.${device}.${exp}.${await cookieSignature(db, SECRET_NAME, [uid, device, exp])}`, {
    httpOnly: true,
    sameSite: "lax",
    secure: arrivedOverHttps(req, res),
    path: COOKIE_PATH,
    expires: new Date(exp * 1000),
    encode: String,
  });
}
