import type { Request, Response } from "express";
import type { Session } from "../../api/types";
import { cookieValues } from "../http/cookies";
import { ForbiddenError } from "../http/errors";
import { arrivedOverHttps } from "../http/security";
import { parseBody } from "../http/validate";
import { refreshSchema } from "./auth.schema";

/**
 * The browser's refresh token lives in an HttpOnly cookie no script can read, sent only to
 * /api/auth. A browser asks for it with this header on sign-in; the header is required again
 * with the cookie on refresh and sign-out, which a cross-site form cannot add.
 */
export const SESSION_HEADER = "x-photodrop-session";
export const REFRESH_COOKIE = "photodrop_refresh";
const COOKIE_PATH = "/api/auth";

const wantsCookie = (req: Request) => req.get(SESSION_HEADER) === "cookie";

function cookieOptions(req: Request, res: Response) {
  return { httpOnly: true, sameSite: "strict" as const, path: COOKIE_PATH, secure: arrivedOverHttps(req, res) };
}

/** Answers a new session: to a browser, the refresh token goes in the cookie and is left out of the body. */
export function sendSession(req: Request, res: Response, session: Session, refreshTtlSeconds: number): void {
  if (!wantsCookie(req)) {
    res.json(session);
    return;
  }
  res.cookie(REFRESH_COOKIE, session.refreshToken, { ...cookieOptions(req, res), maxAge: refreshTtlSeconds * 1000 });
  const { refreshToken: _inCookie, ...rest } = session;
  res.json(rest);
}

/**
 * The refresh token of a refresh or sign-out: the body's (API clients), else the cookie's
 * (browsers, with the header); `fromCookie` says which.
 */
export function refreshTokenOf(req: Request): { token: string; fromCookie: boolean } {
  const [cookie] = cookieValues(req, REFRESH_COOKIE);
  const inBody = (req.body as { refreshToken?: unknown } | undefined)?.refreshToken !== undefined;
  if (!cookie || inBody) return { token: parseBody(refreshSchema, req.body).refreshToken, fromCookie: false };
  if (!wantsCookie(req))
    throw new ForbiddenError(`The session cookie is only accepted with the ${SESSION_HEADER} header`);
  return { token: decodeURIComponent(cookie), fromCookie: true };
}

export function clearSessionCookie(req: Request, res: Response): void {
  res.clearCookie(REFRESH_COOKIE, cookieOptions(req, res));
}
