/** The signed-in session, kept in localStorage so a reload or a new tab stays signed in. */
import type { Session, User } from "../../../api/types";

export type { Role, Session, User } from "../../../api/types";

export interface StoredSession extends Session {
  /** Epoch milliseconds; computed when stored because expiresIn is relative to the answer. */
  expiresAt: number;
}

const STORAGE_KEY = "photodrop.session";

export function readSession(): StoredSession | null {
  try {
    const raw = localStorage.getItem(STORAGE_KEY);
    if (!raw) return null;
    const parsed = JSON.parse(raw) as StoredSession;
    return parsed?.accessToken && parsed.user?.uid ? parsed : null;
  } catch {
    return null;
  }
}

export function writeSession(session: Session): StoredSession {
  const stored: StoredSession = { ...session, expiresAt: Date.now() + session.expiresIn * 1000 };
  localStorage.setItem(STORAGE_KEY, JSON.stringify(stored));
  return stored;
}

export function updateSessionUser(user: User): void {
  const current = readSession();
  if (current && current.user.uid === user.uid) {
    localStorage.setItem(STORAGE_KEY, JSON.stringify({ ...current, user }));
  }
}

export function clearSession(): void {
  localStorage.removeItem(STORAGE_KEY);
}

/** Another tab signing in, out or refreshing changes the stored session; the callback gets its uid now. */
export function onSessionChangedElsewhere(callback: (uid: string | null) => void): () => void {
  const listener = (event: StorageEvent) => {
    if (event.key !== STORAGE_KEY && event.key !== null) return;
    callback(uidOf(event.newValue));
  };
  window.addEventListener("storage", listener);
  return () => window.removeEventListener("storage", listener);
}

function uidOf(raw: string | null): string | null {
  if (!raw) return null;
  try {
    return (JSON.parse(raw) as StoredSession).user?.uid ?? null;
  } catch {
    return null;
  }
}
