import crypto from "node:crypto";
import type { AppContext } from "../context";
import { UnauthorizedError } from "../http/errors";
import type { Db } from "../db/database";
import { appSecret } from "../db/app-secrets";
import type { Session } from "../../api/types";
import { findUserRow, bumpSessionGeneration, toUser, type UserRow } from "../users/users.repository";
import { endSessionRows, extendSession, insertSession, isSessionLive } from "../sessions/sessions.repository";
import {
  deleteExpiredRefreshTokens,
  familyOfRefreshToken,
  insertRefreshToken,
  revokeFamilyRefreshTokens,
  revokeUserRefreshTokens,
  rotateRefreshToken,
} from "./refresh-tokens.repository";
import { hashSecretToken, newSecretToken, secondsFromNow } from "./secret-tokens";

/** Where a sign-in comes from, as its session lists it. */
export interface SessionClient {
  userAgent: string | null;
  address: string | null;
}

async function sessionFor(ctx: AppContext, row: UserRow, refreshToken: string, sessionId: string): Promise<Session> {
  return {
    accessToken: await ctx.tokens.signAccessToken(row.uid, row.session_generation, sessionId),
    refreshToken,
    expiresIn: ctx.tokens.accessTokenTtl,
    user: toUser(row),
  };
}

/** A fresh sign-in: a new refresh-token family, which is also the session the user sees listed. */
export async function startSession(
  ctx: AppContext,
  row: UserRow,
  client: SessionClient = { userAgent: null, address: null },
): Promise<Session> {
  await deleteExpiredRefreshTokens(ctx.db, row.uid);
  const { token, hash } = newSecretToken();
  const family = crypto.randomUUID();
  const expiresAt = secondsFromNow(ctx.config.refreshTokenTtl);
  await ctx.db.transaction(async (trx) => {
    await insertSession(trx, { id: family, uid: row.uid, ...client, expiresAt });
    await insertRefreshToken(trx, { uid: row.uid, family, hash, expiresAt });
  });
  return sessionFor(ctx, row, token, family);
}

const invalidRefresh = () => new UnauthorizedError("Invalid or expired refresh token");

/**
 * How long a browser's refresh token that was just replaced still answers, with the session it
 * was replaced by. Tabs of one browser share the cookie; without Web Locks (a page over plain
 * HTTP is no secure context) two of them can send it at once, and a reload can cut off the answer
 * that carried the new cookie. Those repeats come within a second on a LAN and a few on a slow
 * phone; a thief using a stolen cookie must do so within these seconds of its owner, and then
 * only holds what the owner holds: whichever of them rotates next makes the other's next use a
 * replay, which ends the sign-in as before.
 */
export const REFRESH_GRACE_SECONDS = 10;

/**
 * A refresh token's successor is derived from it with a key kept in the database, so a repeat
 * within the grace answers the very token the first refresh issued although only hashes are stored.
 */
async function successorOf(db: Db, refreshToken: string): Promise<{ token: string; hash: string }> {
  const key = await appSecret(db, "refresh_successor_key");
  const token = crypto.createHmac("sha256", key).update(refreshToken, "utf8").digest("base64url");
  return { token, hash: hashSecretToken(token) };
}

/**
 * Swaps a refresh token for a new session. `grace`: a browser's cookie, which may be repeated
 * within REFRESH_GRACE_SECONDS (API clients keep their own token and get no grace).
 */
export async function refreshSession(
  ctx: AppContext,
  refreshToken: string,
  { grace = false }: { grace?: boolean } = {},
): Promise<Session> {
  const next = await successorOf(ctx.db, refreshToken);
  const expiresAt = secondsFromNow(ctx.config.refreshTokenTtl);
  const result = await rotateRefreshToken(
    ctx.db,
    hashSecretToken(refreshToken),
    { hash: next.hash, expiresAt },
    grace ? REFRESH_GRACE_SECONDS * 1000 : 0,
  );
  if (result.outcome === "reused") {
    ctx.logger.warn(
      { uid: result.uid, family: result.family },
      "refresh token replayed; every token of its sign-in revoked",
    );
    // Its access tokens die with it, in every process.
    await endSessions(ctx, result.uid, [result.family]);
    throw invalidRefresh();
  }
  if (result.outcome === "invalid") throw invalidRefresh();
  // A refresh racing with its session's end can rotate in a token the end did not see: refused all the same.
  if (!(await isSessionLive(ctx.db, result.family))) {
    await revokeFamilyRefreshTokens(ctx.db, result.family);
    throw invalidRefresh();
  }
  if (result.outcome === "repeated") ctx.logger.info({ uid: result.uid }, "refresh token repeated within its grace");
  else await extendSession(ctx.db, result.family, expiresAt);
  const row = await findUserRow(ctx.db, result.uid);
  if (!row) throw invalidRefresh();
  return sessionFor(ctx, row, next.token, result.family);
}

/** Sign-out; an unknown or already dead token is not an error, the outcome is the same. */
export async function endSession(ctx: AppContext, refreshToken: string): Promise<void> {
  const owner = await familyOfRefreshToken(ctx.db, hashSecretToken(refreshToken));
  if (owner) await endSessions(ctx, owner.uid, [owner.family]);
}

/**
 * Ends some of the user's sessions (or all): their refresh tokens die, and so do their access
 * tokens in every process at their next request (the user's change is announced), and their live
 * sockets close. Answers the ids ended.
 */
export async function endSessions(ctx: AppContext, uid: string, ids: string[] | "all"): Promise<string[]> {
  const ended = await ctx.db.transaction((trx) => endSessionRows(trx, uid, ids));
  if (ended.length > 0) ctx.events.userChanged(uid);
  return ended;
}

/**
 * Signs the account out everywhere: its refresh tokens and sessions die and access tokens issued
 * until now are refused. The caller announces the user's change once committed.
 */
export async function endEverySession(db: Db, uid: string): Promise<void> {
  await endSessionRows(db, uid, "all");
  await revokeUserRefreshTokens(db, uid);
  await bumpSessionGeneration(db, uid);
}
