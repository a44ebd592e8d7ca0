import type { AppContext } from "../context";
import { noteSessionActivity } from "./sessions.repository";

/** A session's "last active" is written at most this often by one process. */
const ACTIVITY_WRITE_INTERVAL_MS = 60_000;
const MAX_TRACKED = 50_000;

const written = new WeakMap<AppContext, Map<string, number>>();

/**
 * Notes that a session made a request, after the answer and never failing it: one write a minute
 * per session and process at most, so a busy page costs no write per request.
 */
export function noteSessionActive(ctx: AppContext, sessionId: string, address: string | null, now = Date.now()): void {
  let bySession = written.get(ctx);
  if (!bySession) written.set(ctx, (bySession = new Map()));
  if (now - (bySession.get(sessionId) ?? 0) < ACTIVITY_WRITE_INTERVAL_MS) return;
  if (bySession.size >= MAX_TRACKED) bySession.clear();
  bySession.set(sessionId, now);
  noteSessionActivity(ctx.db, sessionId, new Date(now).toISOString(), address).catch((err: unknown) =>
    ctx.logger.warn({ err }, "could not note a session's activity"),
  );
}
