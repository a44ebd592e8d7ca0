import type { AppContext } from "../context";
import { endSessions } from "../auth/sessions";
import { NotFoundError } from "../http/errors";
import { listLiveSessions } from "./sessions.repository";
import { describeUserAgent } from "./user-agent";

interface SessionView {
  id: string;
  browser: string | null;
  system: string | null;
  userAgent: string | null;
  address: string | null;
  createdAt: string;
  lastActiveAt: string;
  current: boolean;
}

/** The user's sign-ins, `current` marking the one the request came with. */
export async function listSessions(
  ctx: AppContext,
  uid: string,
  currentId: string | undefined,
): Promise<SessionView[]> {
  const sessions = await listLiveSessions(ctx.db, uid);
  return sessions.map(({ uid: _uid, ...session }) => ({
    ...session,
    ...describeUserAgent(session.userAgent),
    current: session.id === currentId,
  }));
}

/** Signs one of the user's own sessions out; 404 for an unknown, ended or another user's one. */
export async function signOutSession(ctx: AppContext, uid: string, id: string): Promise<void> {
  const ended = await endSessions(ctx, uid, [id]);
  if (ended.length === 0) throw new NotFoundError("Session not found");
  ctx.logger.info({ uid, session: id }, "session signed out from the sessions list");
}

/** Signs out every session of the user but `keep` (the request's own); answers how many ended. */
export async function signOutOtherSessions(ctx: AppContext, uid: string, keep: string | undefined): Promise<number> {
  const others = (await listLiveSessions(ctx.db, uid)).map((s) => s.id).filter((id) => id !== keep);
  if (others.length === 0) return 0;
  const ended = await endSessions(ctx, uid, others);
  ctx.logger.info({ uid, count: ended.length }, "every other session signed out");
  return ended.length;
}
