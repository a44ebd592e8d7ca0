import type { AuthActionResponse, AuthProvider } from "@refinedev/core";
import { recheckAccess } from "./access-control";
import { freshAccessToken, http, toHttpError } from "./http";
import {
  clearSession,
  onSessionChangedElsewhere,
  readSession,
  signedInUid as lastSignedInUid,
  updateSessionUser,
  writeSession,
  type BrowserSession,
  type User,
} from "./session";
import { t } from "../i18n";

export interface SignInVariables {
  email?: string;
  password?: string;
  providerName?: string;
  /** A Google ID token from Google Identity Services. */
  credential?: string;
}

export interface SignUpVariables {
  email: string;
  password: string;
  displayName?: string;
}

export interface UpdatePasswordVariables {
  token?: string;
  password?: string;
}

/**
 * The last user this page has shown. Cached data (lists, access answers) belongs to that user, so
 * a different user signing in gets a fresh page load rather than their predecessor's cache.
 */
let shownUid: string | null = lastSignedInUid();
/** Who this tab is signed in as right now (null after signing out, unlike shownUid). */
let signedInUid: string | null = shownUid;

function startSession(session: BrowserSession): AuthActionResponse {
  const previousUid = shownUid;
  writeSession(session);
  shownUid = session.user.uid;
  signedInUid = session.user.uid;
  if (previousUid && previousUid !== session.user.uid) {
    window.location.assign("/");
  }
  return { success: true, redirectTo: "/" };
}

function failure(name: string, error: unknown): AuthActionResponse {
  const { message } = toHttpError(error);
  return { success: false, error: { name, message } };
}

export const authProvider: AuthProvider = {
  login: async ({ email, password, providerName, credential }: SignInVariables) => {
    try {
      const { data } =
        providerName === "google"
          ? await http.post<BrowserSession>("/auth/google", { credential })
          : await http.post<BrowserSession>("/auth/login", { email, password });
      return startSession(data);
    } catch (error) {
      return failure("Sign-in failed", error);
    }
  },

  register: async ({ email, password, displayName }: SignUpVariables) => {
    try {
      const { data } = await http.post<BrowserSession>("/auth/signup", { email, password, displayName });
      return startSession(data);
    } catch (error) {
      return failure("Sign-up failed", error);
    }
  },

  forgotPassword: async ({ email }: { email: string }) => {
    try {
      await http.post("/auth/password-reset", { email });
      return { success: true };
    } catch (error) {
      return failure("Password reset failed", error);
    }
  },

  updatePassword: async ({ token, password }: UpdatePasswordVariables) => {
    try {
      await http.post("/auth/password-reset/confirm", { token, password });
      return {
        success: true,
        redirectTo: "/login",
        successNotification: { message: t("auth.passwordChanged") },
      };
    } catch (error) {
      return failure("Password change failed", error);
    }
  },

  logout: async () => {
    const wasSignedIn = Boolean(readSession() ?? lastSignedInUid());
    clearSession();
    signedInUid = null;
    if (wasSignedIn) {
      try {
        // The cookie goes along by itself; the server ends its token and clears it.
        await http.post("/auth/logout");
      } catch (error) {
        // The local session is gone either way; the refresh token simply expires on the server.
        console.error("Failed to end the session on the server:", toHttpError(error).message);
      }
    }
    return { success: true, redirectTo: "/login" };
  },

  check: async () => {
    const token = await freshAccessToken();
    return token ? { authenticated: true } : { authenticated: false, redirectTo: "/login", logout: true };
  },

  getIdentity: async () => {
    if (!(await freshAccessToken())) return null;
    try {
      const { data } = await http.get<User>("/users/me");
      updateSessionUser(data);
      return data;
    } catch {
      return readSession()?.user ?? null;
    }
  },

  getPermissions: async () => ((await freshAccessToken()) ? (readSession()?.user.role ?? null) : null),

  onError: async (error) => {
    const { statusCode } = toHttpError(error);
    if (statusCode === 401) {
      return { logout: true, redirectTo: "/login", error };
    }
    // Access revoked (or the admin role lost) since the screen was shown: the access gate asks again.
    if (statusCode === 403) recheckAccess();
    return {};
  },
};

/**
 * Another tab signed in as someone else, or signed out: this tab's screen and cache belong to a
 * session that is gone, so it starts over with a full page load.
 */
export function followSessionChangesInOtherTabs(): () => void {
  return onSessionChangedElsewhere((uid) => {
    if (uid === signedInUid) return;
    window.location.assign(uid ? "/" : "/login");
  });
}
