import type { AppContext } from "../context";
import { createRateLimiter, type RateLimiter } from "../http/rate-limit";

/**
 * The favourites routes' budgets, per link and client address, counted where the sign-in limits
 * are (`rate_limit_windows`, keys only as hashes) so every process shares them: any request; new
 * visitors (each is a row the studio sees); sending the selection (each is a mail to the staff).
 */
export const FAVOURITE_LIMITS = {
  requests: { limit: 300, windowSeconds: 5 * 60 },
  visitors: { limit: 10, windowSeconds: 3600 },
  submits: { limit: 10, windowSeconds: 3600 },
};

type Budget = keyof typeof FAVOURITE_LIMITS;

const perContext = new WeakMap<AppContext, Record<Budget, RateLimiter>>();

/** Counts one request against `budget` for this link and address; 429 with Retry-After once it is spent. */
export async function spend(ctx: AppContext, budget: Budget, token: string, ip: string | undefined): Promise<void> {
  let limiters = perContext.get(ctx);
  if (!limiters) {
    const make = (b: Budget) => createRateLimiter({ db: ctx.db, ...FAVOURITE_LIMITS[b] });
    limiters = { requests: make("requests"), visitors: make("visitors"), submits: make("submits") };
    perContext.set(ctx, limiters);
  }
  await limiters[budget].consume(`favourites|${budget}|${token}|${ip ?? "unknown"}`);
}
