import type { Db } from "../db/database";
import { createRateLimiter } from "../http/rate-limit";

/** Wrong passcodes a link takes per window before every try is refused. */
export const PASSCODE_LIMIT = { limit: 10, windowSeconds: 15 * 60 };

const TOO_MANY_WRONG = "Too many wrong passcodes, please try again later";

/**
 * Tries per link, counted where the sign-in limits are (`rate_limit_windows`, the link stored
 * only as a hash), so every process on one database shares one budget and a restart forgets
 * nothing. Each try is counted before its passcode is checked, in one atomic step, so of any
 * number sent at once only `limit` are checked; a right passcode then gives its try back, so only
 * wrong ones spend the budget. Past the budget every try (right or wrong) answers 429 until the
 * window ends, so it cannot be used to confirm a guess.
 */
export function createPasscodeAttempts(db: Db, opts: { limit: number; windowSeconds: number } = PASSCODE_LIMIT) {
  const limiter = createRateLimiter({ db, ...opts });
  const key = (token: string) => `passcode|${token}`;
  return {
    /** Counts a try before it is checked; rejects with 429 (with Retry-After) once the link's budget is spent. */
    count: (token: string) => limiter.consume(key(token), { message: TOO_MANY_WRONG }),
    /** A right passcode's try is not charged. */
    giveBack: (token: string) => limiter.giveBack(key(token)),
  };
}

export type PasscodeAttempts = ReturnType<typeof createPasscodeAttempts>;
