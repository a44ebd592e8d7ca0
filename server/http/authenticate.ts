import type { Request, RequestHandler } from "express";
import type { AppContext } from "../context";
import type { User } from "../../api/types";
import { findUserRow, toUser } from "../users/users.repository";
import { ForbiddenError, UnauthorizedError } from "./errors";
import { signedInUsers } from "./signed-in-users";

declare module "express-serve-static-core" {
  interface Request {
    user?: User;
  }
}

export function bearerToken(req: Request): string | undefined {
  const header = req.get("authorization");
  const match = header?.match(/^Bearer\s+(\S+)\s*$/i);
  return match?.[1];
}

/**
 * Resolves a token to the user as stored now, so approval, revocation and role changes apply on the
 * next call: from memory while the bus has announced no change of that user (see signed-in-users.ts).
 */
export async function userForToken(ctx: AppContext, token: string): Promise<User> {
  const cache = signedInUsers(ctx.events);
  const cached = cache.get(token);
  if (cached) return cached;
  const { uid, generation, expiresAt } = await ctx.tokens.verifyAccessToken(token);
  const version = cache.version(uid);
  const row = await findUserRow(ctx.db, uid);
  // A token from before the account was signed out everywhere is void, however young.
  if (!row || generation !== row.session_generation) throw new UnauthorizedError("Invalid or expired token");
  const user = toUser(row);
  cache.set(token, user, expiresAt, version);
  return user;
}

export function authenticate(ctx: AppContext): RequestHandler {
  return async (req, _res, next) => {
    const token = bearerToken(req);
    if (!token) throw new UnauthorizedError();
    req.user = await userForToken(ctx, token);
    next();
  };
}

export const requireApproved: RequestHandler = (req, _res, next) => {
  if (!req.user?.hasAccess) throw new ForbiddenError("Access not approved");
  next();
};

export const requireAdmin: RequestHandler = (req, _res, next) => {
  if (req.user?.role !== "admin" || !req.user.hasAccess) throw new ForbiddenError("Admin access required");
  next();
};

/** The signed-in user of a route behind `authenticate`. */
export function currentUser(req: Request): User {
  if (!req.user) throw new UnauthorizedError();
  return req.user;
}
