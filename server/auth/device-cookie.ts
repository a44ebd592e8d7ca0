import crypto from "node:crypto";
import type { Request, Response } from "express";
import type { Db } from "../db/database";
import { appSecret } from "../db/app-secrets";
import { cookieValues } from "../http/cookies";
import { arrivedOverHttps } from "../http/security";
import { SESSION_HEADER } from "./session-cookie";

/**
 * A browser that has signed in to an account: its sign-ins are held to a ceiling of their own
 * instead of the account-wide one, so failures from elsewhere never lock the owner out of it.
 */
export const DEVICE_COOKIE = "photodrop_device";
const SECRET_NAME = "device_cookie_key";
const LIFETIME_SECONDS = 365 * 24 * 3600;
const COOKIE_PATH = "/api/auth";
const VALUE = /^([A-Za-z0-9_-]{1,64})\.([A-Za-z0-9_-]{16})\.(\d{1,12})\.([A-Za-z0-9_-]{43})$/;

const seconds = (ms: number) => Math.floor(ms / 1000);

/** The signature binds the account, the device's id and the cookie's expiry, so none can be edited client-side. */
async function sign(db: Db, uid: string, device: string, exp: number): Promise<string> {
  const key = await appSecret(db, SECRET_NAME);
  return crypto.createHmac("sha256", key).update(`${uid}\n${device}\n${exp}`).digest("base64url");
}

/** The device id of a cookie this server signed for this account, still within its life; undefined without one. */
export async function knownDevice(db: Db, req: Request, uid: string, now = Date.now()): Promise<string | undefined> {
  for (const value of cookieValues(req, DEVICE_COOKIE)) {
    const match = VALUE.exec(value);
    if (!match || match[1] !== uid || Number(match[3]) <= seconds(now)) continue;
    const given = Buffer.from(match[4]);
    const expected = Buffer.from(await sign(db, uid, match[2], Number(match[3])));
    if (given.length === expected.length && crypto.timingSafeEqual(given, expected)) return match[2];
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
  res.cookie(DEVICE_COOKIE, `${uid}.${device}.${exp}.${await sign(db, uid, device, exp)}`, {
    httpOnly: true,
    sameSite: "lax",
    secure: arrivedOverHttps(req, res),
    path: COOKIE_PATH,
    expires: new Date(exp * 1000),
    encode: String,
  });
}
