import { TooManyRequestsError } from "../http/errors";

interface Window {
  failures: number;
  resetAt: number;
}

const SWEEP_THRESHOLD = 10_000;

/**
 * Wrong passcodes per link: after `limit` wrong tries in a window, every try (right or wrong)
 * answers 429 until the window ends, so the budget cannot be used to confirm a guess.
 */
export function createPasscodeAttempts(opts: { limit: number; windowSeconds: number; now?: () => number }) {
  const now = opts.now ?? Date.now;
  const windows = new Map<string, Window>();

  const current = (key: string, at: number) => {
    const w = windows.get(key);
    return w && w.resetAt > at ? w : undefined;
  };

  return {
    /** Throws 429 (with Retry-After) while the link's budget of wrong tries is spent. */
    check(key: string): void {
      const at = now();
      const w = current(key, at);
      if (w && w.failures >= opts.limit)
        throw new TooManyRequestsError((w.resetAt - at) / 1000, "Too many wrong passcodes, please try again later");
    },
    recordFailure(key: string): void {
      const at = now();
      if (windows.size > SWEEP_THRESHOLD) for (const [k, w] of windows) if (w.resetAt <= at) windows.delete(k);
      const w = current(key, at) ?? { failures: 0, resetAt: at + opts.windowSeconds * 1000 };
      w.failures += 1;
      windows.set(key, w);
    },
  };
}

export type PasscodeAttempts = ReturnType<typeof createPasscodeAttempts>;
