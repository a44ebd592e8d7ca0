import crypto from "node:crypto";
import type { IncomingMessage } from "node:http";
import type { Request, Response } from "express";
import { cookieValues } from "../http/cookies";
import { arrivedOverHttps } from "../http/security";

export const VISITOR_COOKIE = "photodrop_visitor";
/** A visitor's key: 256 random bits, base64url. */
const VISITOR_KEY = /^[A-Za-z0-9_-]{43}$/;
/** A link without an expiry keeps its visitors' cookies this long. */
const DEFAULT_LIFETIME_MS = 180 * 24 * 3600 * 1000;

export const newVisitorKey = () => crypto.randomBytes(32).toString("base64url");

/** What the database keeps of a key: its SHA-256, so a copy of the database opens no list. */
export const visitorKeyHash = (key: string) => crypto.createHash("sha256").update(key).digest("hex");

/** The visitor keys the request carries (a browser sends one per matching path). */
export const visitorKeys = (req: IncomingMessage): string[] =>
  cookieValues(req, VISITOR_COOKIE).filter((key) => VISITOR_KEY.test(key));

export const visitorKeyHashes = (req: IncomingMessage): string[] => visitorKeys(req).map(visitorKeyHash);

/**
 * Remembers the visitor for this link's page and routes only (`/d/<token>`): HttpOnly, SameSite=Lax,
 * Secure over HTTPS, living as long as the link (180 days without an expiry).
 */
export function setVisitorCookie(
  req: Request,
  res: Response,
  link: { token: string; expiresAt: string | null },
  key: string,
  now = Date.now(),
): void {
  const ends = link.expiresAt ? new Date(link.expiresAt).getTime() : now + DEFAULT_LIFETIME_MS;
  res.cookie(VISITOR_COOKIE, key, {
    httpOnly: true,
    sameSite: "lax",
    secure: arrivedOverHttps(req, res),
    path: `/d/${link.token}`,
    expires: new Date(ends),
    encode: String,
  });
}
