import { useEffect } from "react";
import { eventsSocket } from "../../lib/events-socket";
import { onAccessRecheck, recheckAccess } from "../../providers/access-control";

/**
 * Calls `recheck` whenever the user's access may have changed: a live `access-changed` frame for
 * this user (sent even before approval), or a 403 from the API. While `waiting` (not approved),
 * also every `pollMs` in case the live socket is down.
 */
export function useAccessWatch(recheck: () => void, { waiting, pollMs }: { waiting: boolean; pollMs: number }): void {
  useEffect(() => {
    const stopWatching = eventsSocket.watchAccess();
    const stopFrames = eventsSocket.onFrame((frame) => {
      if (frame.event === "access-changed") recheckAccess();
    });
    const stopRechecks = onAccessRecheck(recheck);
    return () => {
      stopFrames();
      stopWatching();
      stopRechecks();
    };
  }, [recheck]);

  useEffect(() => {
    if (!waiting) return;
    const timer = setInterval(recheck, pollMs);
    return () => clearInterval(timer);
  }, [waiting, pollMs, recheck]);
}
