import { useEffect, useState } from "react";

// setTimeout holds at most 2^31 - 1 ms (about 24.8 days); a later moment is waited for in steps.
const LONGEST_WAIT_MS = 2 ** 31 - 1;

/** Whether an instant has passed, turning true at that very moment without a reload. */
export function usePassed(iso: string | null): boolean {
  const at = iso === null ? null : Date.parse(iso);
  const [now, setNow] = useState(() => Date.now());
  const passed = at !== null && at <= now;
  useEffect(() => {
    if (at === null || passed) return;
    const timer = setTimeout(() => setNow(Date.now()), Math.min(at - Date.now() + 1, LONGEST_WAIT_MS));
    return () => clearTimeout(timer);
  }, [at, passed, now]);
  return passed;
}
