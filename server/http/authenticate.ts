import type { Request, RequestHandler } from "express";
import type { AppContext } from "../context";
import type { ApiTokenScope, User } from "../../api/types";
import { findUserRow, toUser } from "../users/users.repository";
import { apiTokenCredentials, liveApiToken, useApiToken } from "../api-tokens/api-tokens.service";
import { looksLikeApiToken } from "../api-tokens/token-format";
import { ForbiddenError, UnauthorizedError } from "./errors";
import { signedInUsers, type Credentials } from "./signed-in-users";
import { isSessionLive } from "../sessions/sessions.repository";
import { SessionEndedError } from "../sessions/session-ended";
import { noteSessionActive } from "../sessions/session-activity";

declare module "express-serve-static-core" {
  interface Request {
    user?: User;
    /** Set when the request came with an API token rather than a sign-in. */
    apiToken?: { id: number; scope: ApiTokenScope };
    /** The sign-in's session (server/sessions) the access token belongs to. */
    sessionId?: string;
  }
}

export function bearerToken(req: Request): string | undefined {
  const header = req.get("authorization");
  const match = header?.match(/^Bearer\s+(\S+)\s*$/i);
  return match?.[1];
}

/**
 * Resolves a sign-in's access token or an API token (`pd_…`) to the user as stored now, so
 * approval, revocation, role changes and a deleted API token apply on the next call: from memory
 * while the bus has announced no change of that user (see signed-in-users.ts).
 */
export async function credentialsFor(ctx: AppContext, token: string): Promise<Credentials> {
  const cache = signedInUsers(ctx.events);
  if (looksLikeApiToken(token)) {
    // With several processes, what this one holds is trusted only once it has heard every change
    // committed before this request (one shared round trip): a token deleted anywhere stops here at once.
    const cached = (await ctx.events.caughtUp()) ? cache.get(token) : undefined;
    if (cached) return cached;
    const { uid, expiresAt } = await liveApiToken(ctx, token);
    // The owner's version before the token and its owner are read (again): a deletion or change
    // announced in between is not cached over.
    const version = cache.version(uid);
    const credentials = await apiTokenCredentials(ctx, token);
    cache.set(token, credentials, expiresAt ?? Number.MAX_SAFE_INTEGER, version);
    return credentials;
  }
  // As with API tokens: a session ended through another process is refused here on the next request.
  const cached = (await ctx.events.caughtUp()) ? cache.get(token) : undefined;
  if (cached) return cached;
  const { uid, generation, sessionId, expiresAt } = await ctx.tokens.verifyAccessToken(token);
  const version = cache.version(uid);
  const row = await findUserRow(ctx.db, uid);
  // A token from before the account was signed out everywhere is void, however young.
  if (!row || generation !== row.session_generation) throw new UnauthorizedError("Invalid or expired token");
  if (sessionId && !(await isSessionLive(ctx.db, sessionId))) throw new SessionEndedError();
  const credentials: Credentials = { user: toUser(row), ...(sessionId && { sessionId }) };
  cache.set(token, credentials, expiresAt, version);
  return credentials;
}

export async function userForToken(ctx: AppContext, token: string): Promise<User> {
  return (await credentialsFor(ctx, token)).user;
}

const READS = new Set(["GET", "HEAD"]);

export function authenticate(ctx: AppContext): RequestHandler {
  return async (req, _res, next) => {
    const token = bearerToken(req);
    if (!token) throw new UnauthorizedError();
    const { user, apiToken, sessionId } = await credentialsFor(ctx, token);
    req.user = user;
    if (sessionId) {
      req.sessionId = sessionId;
      noteSessionActive(ctx, sessionId, req.ip ?? null);
    }
    if (apiToken) {
      req.apiToken = apiToken;
      useApiToken(ctx, apiToken.id, req.ip ?? null);
      if (apiToken.scope === "read" && !READS.has(req.method))
        throw new ForbiddenError("This API token's scope is read: it may only read (GET)");
    }
    next();
  };
}

export const requireApproved: RequestHandler = (req, _res, next) => {
  if (!req.user?.hasAccess) throw new ForbiddenError("Access not approved");
  next();
};

export const requireAdmin: RequestHandler = (req, _res, next) => {
  if (req.user?.role !== "admin" || !req.user.hasAccess) throw new ForbiddenError("Admin access required");
  if (req.apiToken && req.apiToken.scope !== "admin")
    throw new ForbiddenError(`This API token's scope is ${req.apiToken.scope}: admin routes need an admin token`);
  next();
};

/** Where API tokens are made and listed: a signed-in person only, not a script holding a token. */
export const requireSignIn: RequestHandler = (req, _res, next) => {
  if (req.apiToken) throw new ForbiddenError("API tokens are managed when signed in, not with an API token");
  next();
};

/** The signed-in user of a route behind `authenticate`. */
export function currentUser(req: Request): User {
  if (!req.user) throw new UnauthorizedError();
  return req.user;
}
