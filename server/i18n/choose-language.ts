import type { IncomingMessage } from "node:http";
import type { Request, Response } from "express";
import { cookieValues } from "../http/cookies";
import { arrivedOverHttps } from "../http/security";
import { DEFAULT_LANGUAGE, fromAcceptLanguage, isLanguage, matchLanguage, type Language } from "./languages";

/** The visitor's own choice of language, from the pages' menu or a link's `?lang=`. */
export const LANGUAGE_COOKIE = "pd_lang";
const YEAR_MS = 365 * 24 * 3600 * 1000;

/** A `?lang=` the request carries, when it names a supported language. */
function queryLanguage(req: IncomingMessage): Language | undefined {
  const query = (req.url ?? "").split("?")[1];
  const value = query ? new URLSearchParams(query).get("lang") : null;
  return value && value.length <= 35 ? matchLanguage(value) : undefined;
}

/** The visitor's choice: the link's `?lang=`, else their cookie. */
function visitorLanguage(req: IncomingMessage): Language | undefined {
  return queryLanguage(req) ?? cookieValues(req, LANGUAGE_COOKIE).find(isLanguage);
}

/** A `?lang=` is kept for a year (for every page: the gallery, its messages and the unsubscribe page). */
export function rememberLanguage(req: Request, res: Response): void {
  const lang = queryLanguage(req);
  if (!lang) return;
  res.cookie(LANGUAGE_COOKIE, lang, {
    httpOnly: true,
    sameSite: "lax",
    secure: arrivedOverHttps(req, res),
    path: "/",
    expires: new Date(Date.now() + YEAR_MS),
    encode: String,
  });
}

export interface LanguageSettings {
  /** The project's own language; null or undefined: the studio's. */
  project?: string | null;
  studio: { language: string; followBrowserLanguage: boolean };
}

/**
 * The language a client's page is shown in: the visitor's own choice, then (only when the studio
 * turned it on) the browser's, then the project's, then the studio's, then English.
 */
export function pageLanguage(req: IncomingMessage, settings: LanguageSettings): Language {
  const browser = settings.studio.followBrowserLanguage
    ? fromAcceptLanguage(req.headers["accept-language"])
    : undefined;
  return visitorLanguage(req) ?? browser ?? mailLanguage(settings);
}

/** The language of a client's mail: the project's, else the studio's. */
export function mailLanguage(settings: LanguageSettings): Language {
  if (isLanguage(settings.project)) return settings.project;
  return isLanguage(settings.studio.language) ? settings.studio.language : DEFAULT_LANGUAGE;
}
