/**
 * The signed-in session, in this tab's memory only: no script can find a token in storage. The
 * refresh token is an HttpOnly cookie the server sets; a reload or a new tab gets a new access
 * token through it. localStorage holds only who is signed in (no token), so other tabs can follow
 * a sign-out or a change of user, and a reload knows to ask.
 */
import type { Session, User } from "../../../api/types";

export type { Role, Session, User } from "../../../api/types";

/** What the server answers a browser: the refresh token stays in its cookie. */
export type BrowserSession = Omit<Session, "refreshToken">;

export interface StoredSession extends BrowserSession {
  /** Epoch milliseconds; computed when stored because expiresIn is relative to the answer. */
  expiresAt: number;
}

const SIGNED_IN_KEY = "photodrop.signed-in";

let current: StoredSession | null = null;

export function readSession(): StoredSession | null {
  return current;
}

/** The user this browser was last signed in as, in any tab: a reload restores that session from the cookie. */
export function signedInUid(): string | null {
  try {
    return uidOf(localStorage.getItem(SIGNED_IN_KEY));
  } catch {
    return null;
  }
}

/** The signed-in user's language as last seen, so a reload starts in it rather than the browser's. */
export function signedInLanguage(): string | null {
  try {
    return (
      (JSON.parse(localStorage.getItem(SIGNED_IN_KEY) ?? "null") as { language?: string } | null)?.language ?? null
    );
  } catch {
    return null;
  }
}

function remember(user: User): void {
  const stored = JSON.stringify({ uid: user.uid, language: user.language });
  if (localStorage.getItem(SIGNED_IN_KEY) !== stored) localStorage.setItem(SIGNED_IN_KEY, stored);
}

export function writeSession(session: BrowserSession): StoredSession {
  const { accessToken, expiresIn, user } = session;
  current = { accessToken, expiresIn, user, expiresAt: Date.now() + expiresIn * 1000 };
  remember(user);
  return current;
}

export function updateSessionUser(user: User): void {
  if (current && current.user.uid === user.uid) {
    current = { ...current, user };
    remember(user);
  }
}

export function clearSession(): void {
  current = null;
  localStorage.removeItem(SIGNED_IN_KEY);
}

/** Another tab signing in as someone else or out changes who is signed in; the callback gets its uid now. */
export function onSessionChangedElsewhere(callback: (uid: string | null) => void): () => void {
  const listener = (event: StorageEvent) => {
    if (event.key !== SIGNED_IN_KEY && event.key !== null) return;
    callback(uidOf(event.newValue));
  };
  window.addEventListener("storage", listener);
  return () => window.removeEventListener("storage", listener);
}

function uidOf(raw: string | null): string | null {
  if (!raw) return null;
  try {
    return (JSON.parse(raw) as { uid?: string }).uid ?? null;
  } catch {
    return null;
  }
}
