import type { RequestHandler, Response } from "express";
import type { EventBus } from "../events/bus";

/**
 * A change's answer leaves only once its announcements have reached the other processes (their
 * NOTIFY committed), so whatever a client asks any process next, that process already knows of
 * the change (it catches up with the bus before answering from memory; see
 * `server/delivery/delivery-cache.ts`). Reads and a single process (no relay) are not held.
 */
export function answerAfterAnnouncements(events: EventBus): RequestHandler {
  return (req, res, next) => {
    if (req.method === "GET" || req.method === "HEAD") return next();
    const end = res.end;
    res.end = function (this: Response, ...args: unknown[]) {
      const sent = events.sent();
      if (!sent) return (end as (...a: unknown[]) => Response).apply(this, args);
      void sent.then(() => (end as (...a: unknown[]) => Response).apply(this, args));
      return this;
    } as Response["end"];
    next();
  };
}
