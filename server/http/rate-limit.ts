import crypto from "node:crypto";
import type { AppContext } from "../context";
import type { Db } from "../db/database";
import { TooManyRequestsError } from "./errors";
import { countAttempt, deleteEndedWindows, deleteScope, findWindow, uncountAttempt } from "./rate-limit.repository";

export interface RateLimiter {
  /**
   * Counts one attempt for the key before anything judges it, in one atomic step in the database;
   * rejects with TooManyRequestsError (with Retry-After) when that count is past the window's
   * budget. Of a burst of N attempts at once, on one process or several, at most the budget's
   * worth get through. `scope` names what the window belongs to (see `clearScope`). Answers the
   * window's count, this attempt included.
   */
  consume(key: string, opts?: { message?: string; scope?: string }): Promise<number>;
  /** Gives back one attempt `consume` counted, for a budget that charges only failures (a success). */
  giveBack(key: string): Promise<void>;
  /** Whether the key's budget for its current window is spent (the next attempt would be refused); counts nothing. */
  spent(key: string): Promise<boolean>;
  /** The refusal `consume` would answer once the key's budget is spent, without counting anything. */
  refusalIfSpent(key: string): Promise<TooManyRequestsError | undefined>;
}

/** Ended windows are deleted at most this often. */
const SWEEP_EVERY_MS = 60_000;

const scopeHashOf = (scope: string) => crypto.createHash("sha256").update(`scope|${scope}`).digest("hex");

/** Ends every window counted with this `scope`, whatever its key and limiter. */
export function clearScope(db: Db, scope: string): Promise<void> {
  return deleteScope(db, scopeHashOf(scope));
}

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

  const spentWindow = async (key: string, at: number) => {
    const window = await findWindow(opts.db, hashOf(key));
    return window && window.resetAt > at && window.count >= opts.limit ? window : undefined;
  };

  return {
    async consume(key, { message, scope } = {}) {
      const at = now();
      const window = await countAttempt(opts.db, hashOf(key), at, windowMs, scope ? scopeHashOf(scope) : null);
      if (at - sweptAt > SWEEP_EVERY_MS) {
        sweptAt = at;
        await deleteEndedWindows(opts.db, at);
      }
      if (window.count > opts.limit) throw new TooManyRequestsError((window.resetAt - at) / 1000, message);
      return window.count;
    },
    async giveBack(key) {
      await uncountAttempt(opts.db, hashOf(key), now());
    },
    async spent(key) {
      return Boolean(await spentWindow(key, now()));
    },
    async refusalIfSpent(key) {
      const at = now();
      const window = await spentWindow(key, at);
      return window && new TooManyRequestsError((window.resetAt - at) / 1000);
    },
  };
}

/** The action whose per-address budget failed sign-ins and refused socket tokens share. */
export const SIGN_IN = "login";

/** An attempt on an account that its budgets have let through to be judged. */
export interface AccountAttempt {
  /** The attempt succeeded: it gives back what it counted on the account's budgets. */
  succeeded(): Promise<void>;
}

/**
 * Separate budgets per action, each counted by client address and, where there is one, by account.
 * Every attempt is counted before it is judged, so a burst gets no more judged than one by one.
 */
export interface AuthRateLimits {
  byIp(action: string, ip: string | undefined): Promise<void>;
  /** Whether the address has spent the action's budget for now. */
  ipSpent(action: string, ip: string | undefined): Promise<boolean>;
  /**
   * Counts an attempt on an account, 429 once a budget is spent:
   * - per account and address pair, `perAccount` per window and `perAccountHourly` an hour, so
   *   failures from one address lock only that address out of the account;
   * - the account's hourly ceiling from every address together (`perAccountHourly`), the guard
   *   against guesses spread over many addresses. Only attempts the pair's budgets let through
   *   count there, and of each address only its first `perAccount` of the hour: one address alone
   *   cannot spend it. With `device` (a browser that signed in to the account before) the
   *   attempt is held to that device's own ceiling instead.
   * `succeeded()` gives an attempt's counts back: only failures spend these budgets.
   */
  forAccount(
    action: string,
    account: string,
    ip: string | undefined,
    opts?: { device?: string },
  ): Promise<AccountAttempt>;
  /** Ends every window of the account's `action` budgets: every address's, the ceiling and the devices'. */
  clearAccount(action: string, account: string): Promise<void>;
}

const perContext = new WeakMap<AppContext, AuthRateLimits>();

/** The one set of identity limits of an app (the sign-in routes and the /events socket share it). */
export function authRateLimits(ctx: AppContext): AuthRateLimits {
  let limits = perContext.get(ctx);
  if (!limits) perContext.set(ctx, (limits = createAuthRateLimits(ctx.db, ctx.config.rateLimit)));
  return limits;
}

const accountScope = (action: string, account: string) => `${action}|${account.trim().toLowerCase()}`;

function createAuthRateLimits(
  db: Db,
  config: { windowSeconds: number; perIp: number; perAccount: number; perAccountHourly: number },
): AuthRateLimits {
  const ipLimiter = createRateLimiter({ db, limit: config.perIp, windowSeconds: config.windowSeconds });
  const pairLimiter = createRateLimiter({ db, limit: config.perAccount, windowSeconds: config.windowSeconds });
  // The pair's hourly budget and the account's (or device's) ceiling: one limit, told apart by key.
  const hourly = createRateLimiter({ db, limit: config.perAccountHourly, windowSeconds: 3600 });
  return {
    byIp: async (action, ip) => {
      await ipLimiter.consume(`ip|${action}|${ip ?? "unknown"}`);
    },
    ipSpent: (action, ip) => ipLimiter.spent(`ip|${action}|${ip ?? "unknown"}`),
    forAccount: async (action, account, ip, { device } = {}) => {
      const scope = accountScope(action, account);
      const address = ip ?? "unknown";
      const pair = `pair|${scope}|${address}`;
      const counted: Array<[RateLimiter, string]> = [];
      const count = async (limiter: RateLimiter, key: string) => {
        const n = await limiter.consume(key, { scope });
        counted.push([limiter, key]);
        return n;
      };
      await count(pairLimiter, pair);
      if (device) await count(hourly, `device|${scope}|${device}`);
      else if ((await count(hourly, `pair-hour|${scope}|${address}`)) <= config.perAccount)
        await count(hourly, `account|${scope}`);
      else {
        // Past its share the address no longer counts towards the ceiling, but is still held to it.
        const refusal = await hourly.refusalIfSpent(`account|${scope}`);
        if (refusal) throw refusal;
      }
      return {
        succeeded: async () => {
          for (const [limiter, key] of counted) await limiter.giveBack(key);
        },
      };
    },
    clearAccount: (action, account) => clearScope(db, accountScope(action, account)),
  };
}
