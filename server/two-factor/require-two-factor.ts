import type { Request, RequestHandler } from "express";
import type { AppContext } from "../context";
import { HttpError } from "../http/errors";
import { getStudio } from "../studio/studio.service";
import { hasTwoFactor } from "./two-factor.repository";
import type { Credentials } from "../http/signed-in-users";

export const TWO_FACTOR_REQUIRED = "Two-factor sign-in is required: turn it on in Security first";

/** What a signed-in person may still do before enrolling: see themself, enrol, and manage their sessions. */
function mayBeforeEnrolment(req: Request): boolean {
  const path = req.path.replace(/\/+$/, "");
  if (path === "/users/me") return req.method === "GET" || req.method === "HEAD";
  return (
    path === "/users/me/access" ||
    path === "/users/me/request-access" ||
    /^\/users\/me\/(two-factor|sessions)(\/|$)/.test(path)
  );
}

const kept = new WeakMap<AppContext, { value?: Promise<boolean> }>();

/**
 * Whether the studio requires two-factor sign-in of everyone (the Studio setting), read once and kept
 * until a change of the studio is announced, so the common case (off) costs every request nothing.
 */
export function twoFactorRequired(ctx: AppContext): Promise<boolean> {
  let memo = kept.get(ctx);
  if (!memo) {
    const fresh: { value?: Promise<boolean> } = {};
    kept.set(ctx, (memo = fresh));
    ctx.events.onResourceChanged((change) => {
      if (change.resource === "studio") fresh.value = undefined;
    });
    ctx.events.onAnnouncementsLost(() => (fresh.value = undefined));
  }
  if (memo.value) return memo.value;
  const into = memo;
  const load = getStudio(ctx).then((settings) => Boolean(settings.requireTwoFactor));
  into.value = load;
  load.catch(() => {
    if (into.value === load) into.value = undefined;
  });
  return load;
}

/**
 * Whether the Studio's 'Require two-factor sign-in' holds these credentials back until their user
 * turns it on. API tokens pass: the setting is about signing in, and a token asks for no code.
 */
export async function mustEnrolFirst(ctx: AppContext, credentials: Credentials): Promise<boolean> {
  if (credentials.apiToken) return false;
  return (await twoFactorRequired(ctx)) && !(await hasTwoFactor(ctx.db, credentials.user.uid));
}

export const enrolFirst = () => new HttpError(403, TWO_FACTOR_REQUIRED, { twoFactor: "required" });

/**
 * With the Studio's 'Require two-factor sign-in', a sign-in of someone without it is refused
 * everywhere but enrolment (403, `errors.twoFactor: "required"`), so the web app can lead them
 * there; the attachment files (mounted before this) ask `mustEnrolFirst` themselves.
 */
export function requireTwoFactorEnrolment(ctx: AppContext): RequestHandler {
  return async (req, _res, next) => {
    if (!req.user || mayBeforeEnrolment(req)) return next();
    if (await mustEnrolFirst(ctx, { user: req.user, apiToken: req.apiToken })) throw enrolFirst();
    next();
  };
}
