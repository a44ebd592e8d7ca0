import type { ApiToken, ApiTokenRequest, CreatedApiToken, User } from "../../api/types";
import type { AppContext } from "../context";
import { nowIso } from "../db/database";
import { ConflictError, ForbiddenError, NotFoundError, TooManyRequestsError, UnauthorizedError } from "../http/errors";
import type { Credentials } from "../http/signed-in-users";
import { findUserRow, toUser } from "../users/users.repository";
import {
  deleteApiToken,
  findApiTokenByHash,
  insertApiToken,
  listApiTokens,
  noteApiTokenUse,
} from "./api-tokens.repository";
import { apiTokenHash, isApiToken, newApiToken, shownPartOf } from "./token-format";

/** More than any studio's scripts need; a leak of the list stays small. */
const MAX_TOKENS_PER_USER = 100;
/** Last use is written at most this often per token: a busy script costs no write per request. */
const LAST_USE_INTERVAL_MS = 60_000;
const INVALID = "Invalid or expired API token";

export async function createApiToken(ctx: AppContext, user: User, input: ApiTokenRequest): Promise<CreatedApiToken> {
  if (input.scope === "admin" && user.role !== "admin") throw new ForbiddenError("Only admins may create admin tokens");
  if ((await listApiTokens(ctx.db, user.uid)).length >= MAX_TOKENS_PER_USER)
    throw new ConflictError(`You have ${MAX_TOKENS_PER_USER} API tokens: delete one you no longer use first`);
  const token = newApiToken();
  const createdAt = nowIso();
  const id = await insertApiToken(
    ctx.db,
    {
      uid: user.uid,
      name: input.name,
      scope: input.scope,
      prefix: shownPartOf(token),
      hash: apiTokenHash(token),
      expiresAt: input.expiresAt,
    },
    createdAt,
  );
  ctx.logger.info({ uid: user.uid, tokenId: id, scope: input.scope }, "API token created");
  return { id, name: input.name, scope: input.scope, expiresAt: input.expiresAt, createdAt, token };
}

export const myApiTokens = (ctx: AppContext, uid: string): Promise<ApiToken[]> => listApiTokens(ctx.db, uid);
export const everyApiToken = (ctx: AppContext): Promise<ApiToken[]> => listApiTokens(ctx.db);

/**
 * Deletes a token (only one of `uid`'s when given). Announced as a change of its owner, so every
 * process drops what it holds of the token before its next request.
 */
export async function removeApiToken(ctx: AppContext, id: number, uid?: string): Promise<void> {
  const owner = await deleteApiToken(ctx.db, id, uid);
  if (!owner) throw new NotFoundError("API token not found");
  ctx.events.userChanged(owner);
  ctx.logger.info({ uid: owner, tokenId: id }, "API token deleted");
}

type LiveApiToken = NonNullable<Awaited<ReturnType<typeof findApiTokenByHash>>>;

/** The stored token behind a bearer `pd_…` token: refused (401) when it is malformed, unknown or expired. */
export async function liveApiToken(ctx: AppContext, token: string): Promise<LiveApiToken> {
  if (!isApiToken(token)) throw new UnauthorizedError(INVALID);
  const found = await findApiTokenByHash(ctx.db, apiTokenHash(token));
  if (!found || (found.expiresAt !== null && found.expiresAt <= Date.now())) throw new UnauthorizedError(INVALID);
  return found;
}

/**
 * What a token speaks for, read now (the token, then its owner): refused (401) when the token is
 * gone or expired, or its owner is gone, no longer approved, or no longer an admin for an admin token.
 */
export async function apiTokenCredentials(ctx: AppContext, token: string): Promise<Credentials> {
  const found = await liveApiToken(ctx, token);
  const row = await findUserRow(ctx.db, found.uid);
  const user = row && toUser(row);
  if (!user?.hasAccess || (found.scope === "admin" && user.role !== "admin")) throw new UnauthorizedError(INVALID);
  return { user, apiToken: { id: found.id, scope: found.scope } };
}

interface Usage {
  windowStart: number;
  count: number;
  lastWritten: number;
}

const usages = new WeakMap<AppContext, Map<number, Usage>>();

/**
 * Counts a request made with a token against its budget (API_TOKEN_REQUESTS_PER_MINUTE in each
 * process; 429 past it) and notes its last use (time
 * and address) at most once a minute, without making the request wait for that write.
 */
export function useApiToken(ctx: AppContext, tokenId: number, address: string | null, now = Date.now()): void {
  let perToken = usages.get(ctx);
  if (!perToken) usages.set(ctx, (perToken = new Map()));
  let usage = perToken.get(tokenId);
  if (!usage || now - usage.windowStart >= 60_000) {
    usage = { windowStart: now, count: 0, lastWritten: usage?.lastWritten ?? 0 };
    perToken.set(tokenId, usage);
  }
  usage.count += 1;
  if (usage.count > ctx.config.apiTokenRequestsPerMinute)
    throw new TooManyRequestsError(
      (usage.windowStart + 60_000 - now) / 1000,
      "Too many requests with this API token, please slow down",
    );
  if (now - usage.lastWritten < LAST_USE_INTERVAL_MS) return;
  usage.lastWritten = now;
  noteApiTokenUse(ctx.db, tokenId, new Date(now).toISOString(), address).catch((err: unknown) =>
    ctx.logger.warn({ err, tokenId }, "could not note an API token's use"),
  );
}
