import crypto from "node:crypto";
import type { AppContext } from "../context";
import { UnauthorizedError } from "../http/errors";
import type { Db } from "../db/database";
import type { Session } from "../../api/types";
import { findUserRow, bumpSessionGeneration, toUser, type UserRow } from "../users/users.repository";
import {
  deleteExpiredRefreshTokens,
  insertRefreshToken,
  revokeRefreshToken,
  revokeUserRefreshTokens,
  rotateRefreshToken,
} from "./refresh-tokens.repository";
import { hashSecretToken, newSecretToken, secondsFromNow } from "./secret-tokens";

async function sessionFor(ctx: AppContext, row: UserRow, refreshToken: string): Promise<Session> {
  return {
    accessToken: await ctx.tokens.signAccessToken(row.uid, row.session_generation),
    refreshToken,
    expiresIn: ctx.tokens.accessTokenTtl,
    user: toUser(row),
  };
}

/** A fresh sign-in: a new refresh-token family. */
export async function startSession(ctx: AppContext, row: UserRow): Promise<Session> {
  await deleteExpiredRefreshTokens(ctx.db, row.uid);
  const { token, hash } = newSecretToken();
  await insertRefreshToken(ctx.db, {
    uid: row.uid,
    family: crypto.randomUUID(),
    hash,
    expiresAt: secondsFromNow(ctx.config.refreshTokenTtl),
  });
  return sessionFor(ctx, row, token);
}

const invalidRefresh = () => new UnauthorizedError("Invalid or expired refresh token");

export async function refreshSession(ctx: AppContext, refreshToken: string): Promise<Session> {
  const next = newSecretToken();
  const result = await rotateRefreshToken(ctx.db, hashSecretToken(refreshToken), {
    hash: next.hash,
    expiresAt: secondsFromNow(ctx.config.refreshTokenTtl),
  });
  if (result.outcome === "reused") {
    ctx.logger.warn(
      { uid: result.uid, family: result.family },
      "refresh token replayed; every token of its sign-in revoked",
    );
    throw invalidRefresh();
  }
  if (result.outcome === "invalid") throw invalidRefresh();
  const row = await findUserRow(ctx.db, result.uid);
  if (!row) throw invalidRefresh();
  return sessionFor(ctx, row, next.token);
}

/** Sign-out; an unknown or already dead token is not an error, the outcome is the same. */
export async function endSession(ctx: AppContext, refreshToken: string): Promise<void> {
  await revokeRefreshToken(ctx.db, hashSecretToken(refreshToken));
}

/** Signs the account out everywhere: its refresh tokens die and access tokens issued until now are refused. */
export async function endEverySession(db: Db, uid: string): Promise<void> {
  await revokeUserRefreshTokens(db, uid);
  await bumpSessionGeneration(db, uid);
}
