/**
 * The studio's branding rules, shared: the server's schema refuses what these refuse, the web
 * app says so before sending, and the delivery page picks its text colour with `textColourOn`.
 * Plain code, safe in either.
 */

import { isSingleLine, singleLineProblem } from "./validation";

export const STUDIO_NAME_MAX = 100;
export const CONTACT_MAX = 200;
/** The delivery page's accent when the studio has chosen none. */
export const DEFAULT_ACCENT = "#1971c2";

export const INVALID_ACCENT = "Accent colour must be #rrggbb";
export const INVALID_WEBSITE = "Web site must be an http:// or https:// address";

const ACCENT = /^#[0-9a-f]{6}$/i;

export const isAccentColour = (value: string) => ACCENT.test(value);

/** An absolute http(s) address with a host and no credentials, as typed (trim it first). */
export function isWebsite(value: string): boolean {
  if (value.length > CONTACT_MAX || !isSingleLine(value) || /\s/.test(value)) return false;
  try {
    const url = new URL(value);
    return (url.protocol === "http:" || url.protocol === "https:") && url.hostname !== "" && !url.username;
  } catch {
    return false;
  }
}

/**
 * A web site as the studio meant it: a bare host such as `nordlicht.example` (no scheme, a dot in
 * its first part) gains `https://`; anything else is left as typed (trim it first).
 */
function completeWebsite(site: string): string {
  if (!site || /^[a-z][a-z0-9+.-]*:/i.test(site)) return site;
  const host = site.split(/[/?#]/)[0];
  return /^[^\s@:]+\.[^\s@:]+(:\d+)?$/.test(host) ? `https://${site.replace(/^\/\//, "")}` : site;
}

/** The web site as saved: a bare host completed (completeWebsite), blank as none (trim it first). */
export const websiteAsSaved = (typed: string): string | null => completeWebsite(typed) || null;

/** What is wrong with a studio name as typed (trim it first), or null. */
function studioNameProblem(name: string): string | null {
  if (!name) return "Name is required";
  if (name.length > STUDIO_NAME_MAX) return `Name must be at most ${STUDIO_NAME_MAX} characters`;
  return singleLineProblem("Name", name);
}

/** What is wrong with a web site as typed (trim it first; blank is none; a bare host is completed), or null. */
function websiteProblem(typed: string): string | null {
  if (!typed) return null;
  const site = completeWebsite(typed);
  if (site.length > CONTACT_MAX) return `Web site must be at most ${CONTACT_MAX} characters`;
  const notOneLine = singleLineProblem("Web site", site);
  if (notOneLine) return notOneLine;
  return isWebsite(site) ? null : INVALID_WEBSITE;
}

/** WCAG 2 relative luminance of a #rrggbb colour (0 black to 1 white). */
export function relativeLuminance(hex: string): number {
  const channel = (i: number) => {
    const c = parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(1) + 0.7152 * channel(3) + 0.0722 * channel(5);
}

/** WCAG 2 contrast ratio of two #rrggbb colours, from 1 to 21. */
export function contrastRatio(a: string, b: string): number {
  const [hi, lo] = [relativeLuminance(a), relativeLuminance(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}

/**
 * Black or white, whichever contrasts more with the accent. The worse of the two best cases is a
 * luminance of about 0.18, where both give 4.58:1: text on any accent passes WCAG AA (4.5:1).
 */
export function textColourOn(accent: string): "#000000" | "#ffffff" {
  return contrastRatio(accent, "#000000") >= contrastRatio(accent, "#ffffff") ? "#000000" : "#ffffff";
}

export const INVALID_TIME_ZONE = "Time zone must be one of the IANA time zones, such as Europe/Berlin";

/** The IANA zones this runtime knows (plus UTC, which some list only as Etc/UTC). */
export function timeZones(): string[] {
  const known = Intl.supportedValuesOf("timeZone");
  return known.includes("UTC") ? known : [...known, "UTC"];
}

/**
 * An IANA zone name this runtime can give times in, its aliases too: the list differs between
 * runtimes (`Asia/Kolkata` in one, `Asia/Calcutta` in another), so a zone picked from a browser's
 * list is not refused by a server that lists it under another name.
 */
function isTimeZone(value: string): boolean {
  if (!/^[A-Za-z][\w+-]*(?:\/[\w+-]+)*$/.test(value)) return false;
  try {
    new Intl.DateTimeFormat("en", { timeZone: value });
    return true;
  } catch {
    return false;
  }
}

/** What is wrong with an accent as typed (trim it first), or null. */
const accentProblem = (value: string): string | null => (isAccentColour(value) ? null : INVALID_ACCENT);

/** What is wrong with a time zone as chosen, or null. */
const timeZoneProblem = (value: string): string | null => (isTimeZone(value) ? null : INVALID_TIME_ZONE);

/** The rules of the studio's own fields, one per field, which the server's schema and the web app's form both apply. */
export const studioFieldProblems = {
  name: studioNameProblem,
  accentColor: accentProblem,
  contactWebsite: websiteProblem,
  timeZone: timeZoneProblem,
};
