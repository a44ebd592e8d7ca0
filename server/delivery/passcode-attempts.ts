import type { Db } from "../db/database";
import { createRateLimiter } from "../http/rate-limit";

/** Wrong passcodes a link takes per window before every try is refused. */
export const PASSCODE_LIMIT = { limit: 10, windowSeconds: 15 * 60 };

const TOO_MANY_WRONG = "Too many wrong passcodes, please try again later";

/**
 * Wrong passcodes per link, counted where the sign-in limits are (`rate_limit_windows`, the link
 * stored only as a hash), so every process on one database shares one budget and a restart
 * forgets nothing. After `limit` wrong tries in a window, every try (right or wrong) answers 429
 * until the window ends, so the budget cannot be used to confirm a guess.
 */
export function createPasscodeAttempts(db: Db, opts: { limit: number; windowSeconds: number } = PASSCODE_LIMIT) {
  const limiter = createRateLimiter({ db, ...opts });
  const key = (token: string) => `passcode|${token}`;
  return {
    /** Rejects with 429 (with Retry-After) while the link's budget of wrong tries is spent. */
    check: (token: string) => limiter.refuseIfSpent(key(token), TOO_MANY_WRONG),
    recordFailure: (token: string) => limiter.record(key(token)),
  };
}

export type PasscodeAttempts = ReturnType<typeof createPasscodeAttempts>;
