import crypto from "node:crypto";
import type { AppContext } from "../context";
import type { Db } from "../db/database";
import { TooManyRequestsError } from "./errors";
import { countAttempt, deleteEndedWindows, findWindow } from "./rate-limit.repository";

export interface RateLimiter {
  /** Counts one attempt for the key; rejects with TooManyRequestsError (with Retry-After) once the window's budget is spent. */
  consume(key: string): Promise<void>;
  /** Whether the key's budget for its current window is spent (the next attempt would be refused); counts nothing. */
  spent(key: string): Promise<boolean>;
  /** Rejects with TooManyRequestsError (with Retry-After) while the key's budget is spent; counts nothing. */
  refuseIfSpent(key: string, message?: string): Promise<void>;
  /** Counts one attempt for the key without refusing it (a failure already answered otherwise). */
  record(key: string): Promise<void>;
}

/** Ended windows are deleted at most this often. */
const SWEEP_EVERY_MS = 60_000;

/**
 * A fixed-window counter kept in the database: `limit` attempts per key per `windowSeconds`, the
 * window starting at the key's first attempt. Every process counts into the same rows, so several
 * processes allow no more attempts than one.
 */
export function createRateLimiter(opts: {
  db: Db;
  limit: number;
  windowSeconds: number;
  now?: () => number;
}): RateLimiter {
  const now = opts.now ?? Date.now;
  const windowMs = opts.windowSeconds * 1000;
  let sweptAt = 0;
  const hashOf = (key: string) => crypto.createHash("sha256").update(`${opts.windowSeconds}|${key}`).digest("hex");

  const count = async (key: string, at: number) => {
    const window = await countAttempt(opts.db, hashOf(key), at, windowMs);
    if (at - sweptAt > SWEEP_EVERY_MS) {
      sweptAt = at;
      await deleteEndedWindows(opts.db, at);
    }
    return window;
  };
  const spentWindow = async (key: string, at: number) => {
    const window = await findWindow(opts.db, hashOf(key));
    return window && window.resetAt > at && window.count >= opts.limit ? window : undefined;
  };

  return {
    async consume(key) {
      const at = now();
      const { count: attempts, resetAt } = await count(key, at);
      if (attempts > opts.limit) throw new TooManyRequestsError((resetAt - at) / 1000);
    },
    async spent(key) {
      return Boolean(await spentWindow(key, now()));
    },
    async refuseIfSpent(key, message) {
      const at = now();
      const window = await spentWindow(key, at);
      if (window) throw new TooManyRequestsError((window.resetAt - at) / 1000, message);
    },
    async record(key) {
      await count(key, now());
    },
  };
}

/** The action whose per-address budget failed sign-ins and refused socket tokens share. */
export const SIGN_IN = "login";

/**
 * Separate budgets per action, each counted by client address and, where there is one, by account.
 * An account's short-window budget is counted per account and address pair, so failures from one
 * address cannot lock the owner out from another; an account-wide hourly ceiling stays as the
 * brute-force guard across addresses.
 */
export interface AuthRateLimits {
  byIp(action: string, ip: string | undefined): Promise<void>;
  /** Whether the address has spent the action's budget for now. */
  ipSpent(action: string, ip: string | undefined): Promise<boolean>;
  byAccount(action: string, account: string, ip: string | undefined): Promise<void>;
}

const perContext = new WeakMap<AppContext, AuthRateLimits>();

/** The one set of identity limits of an app (the sign-in routes and the /events socket share it). */
export function authRateLimits(ctx: AppContext): AuthRateLimits {
  let limits = perContext.get(ctx);
  if (!limits) perContext.set(ctx, (limits = createAuthRateLimits(ctx.db, ctx.config.rateLimit)));
  return limits;
}

function createAuthRateLimits(
  db: Db,
  config: { windowSeconds: number; perIp: number; perAccount: number; perAccountHourly: number },
): AuthRateLimits {
  const ipLimiter = createRateLimiter({ db, limit: config.perIp, windowSeconds: config.windowSeconds });
  const pairLimiter = createRateLimiter({ db, limit: config.perAccount, windowSeconds: config.windowSeconds });
  const ceiling = createRateLimiter({ db, limit: config.perAccountHourly, windowSeconds: 3600 });
  return {
    byIp: (action, ip) => ipLimiter.consume(`ip|${action}|${ip ?? "unknown"}`),
    ipSpent: (action, ip) => ipLimiter.spent(`ip|${action}|${ip ?? "unknown"}`),
    byAccount: async (action, account, ip) => {
      const key = `${action}|${account.trim().toLowerCase()}`;
      await ceiling.consume(`account|${key}`);
      await pairLimiter.consume(`pair|${key}|${ip ?? "unknown"}`);
    },
  };
}
