import { TooManyRequestsError } from "./errors";

export interface RateLimiter {
  /** Counts one attempt for the key; throws TooManyRequestsError (with Retry-After) once the window's budget is spent. */
  consume(key: string): void;
}

interface Window {
  count: number;
  resetAt: number;
}

/** Above this many tracked keys, expired windows are swept so memory stays bounded under a spray of addresses. */
const SWEEP_THRESHOLD = 10_000;

/**
 * A fixed-window counter kept in memory: `limit` attempts per key per `windowSeconds`.
 * One process serves everything (contract section 1), so no shared store is needed.
 */
export function createRateLimiter(opts: { limit: number; windowSeconds: number; now?: () => number }): RateLimiter {
  const now = opts.now ?? Date.now;
  const windowMs = opts.windowSeconds * 1000;
  const windows = new Map<string, Window>();

  function sweep(at: number) {
    for (const [key, w] of windows) if (w.resetAt <= at) windows.delete(key);
  }

  return {
    consume(key) {
      const at = now();
      if (windows.size > SWEEP_THRESHOLD) sweep(at);
      let w = windows.get(key);
      if (!w || w.resetAt <= at) {
        w = { count: 0, resetAt: at + windowMs };
        windows.set(key, w);
      }
      w.count += 1;
      if (w.count > opts.limit) throw new TooManyRequestsError((w.resetAt - at) / 1000);
    },
  };
}

/**
 * Separate budgets per action, each counted by client address and, where there is one, by account.
 * An account's short-window budget is counted per account and address pair, so failures from one
 * address cannot lock the owner out from another; an account-wide hourly ceiling stays as the
 * brute-force guard across addresses.
 */
export interface AuthRateLimits {
  byIp(action: string, ip: string | undefined): void;
  byAccount(action: string, account: string, ip: string | undefined): void;
}

export function createAuthRateLimits(config: {
  windowSeconds: number;
  perIp: number;
  perAccount: number;
  perAccountHourly: number;
}): AuthRateLimits {
  const ipLimiter = createRateLimiter({ limit: config.perIp, windowSeconds: config.windowSeconds });
  const pairLimiter = createRateLimiter({ limit: config.perAccount, windowSeconds: config.windowSeconds });
  const ceiling = createRateLimiter({ limit: config.perAccountHourly, windowSeconds: 3600 });
  return {
    byIp: (action, ip) => ipLimiter.consume(`${action}|${ip ?? "unknown"}`),
    byAccount: (action, account, ip) => {
      const key = `${action}|${account.trim().toLowerCase()}`;
      ceiling.consume(key);
      pairLimiter.consume(`${key}|${ip ?? "unknown"}`);
    },
  };
}
