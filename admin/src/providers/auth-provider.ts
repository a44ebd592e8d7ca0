import type { AuthActionResponse, AuthProvider } from "@refinedev/core";
import type { PublicKeyCredentialRequestOptionsJSON } from "@simplewebauthn/browser";
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
  /** "google" (with `credential`) or "passkey"; none for the password and its second step. */
  providerName?: string;
  /** A Google ID token from Google Identity Services. */
  credential?: string;
  /** The second step: the challenge the password step answered, with a code or a recovery code. */
  challenge?: string;
  code?: string;
  recoveryCode?: string;
}

/** The password step's answer for an account with two-factor sign-in: no session yet. */
interface TwoFactorRequired {
  twoFactorRequired: true;
  challenge: string;
}

/** Where a signed-in user without two-factor goes while the studio requires it (the Security page). */
export const ENROLMENT_PATH = "/account/security";

const enrolmentRequests = new EventTarget();

/** The API refused a request until two-factor is on: whoever guards enrolment checks again. */
export function onEnrolmentRequired(listener: () => void): () => void {
  enrolmentRequests.addEventListener("required", listener);
  return () => enrolmentRequests.removeEventListener("required", listener);
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

// A failed auth action's name: Refine's notification of it is only logged (the auth screens show the message).
const SIGN_IN_FAILED = "Sign-in failed";
const SIGN_UP_FAILED = "Sign-up failed";
const PASSWORD_RESET_FAILED = "Password reset failed";
const PASSWORD_CHANGE_FAILED = "Password change failed";

function failure(name: string, error: unknown): AuthActionResponse {
  const { message, statusCode } = toHttpError(error);
  // The sign-in budgets (per address and per account) are spent: say so plainly, in the page's language.
  if (statusCode === 429) return { success: false, error: { name, message: t("auth.tooManyAttempts") } };
  return { success: false, error: { name, message } };
}

/** The second step refused: a wrong or used code, or a challenge past its 5 minutes (one answer for both). */
function secondStepFailure(error: unknown): AuthActionResponse {
  if (toHttpError(error).statusCode === 401) {
    return { success: false, error: { name: SIGN_IN_FAILED, message: t("auth.wrongCode") } };
  }
  return failure(SIGN_IN_FAILED, error);
}

/** The browser's own passkey prompt was closed or timed out (not the server's refusal). */
const isPasskeyPromptDismissed = (error: unknown) =>
  error instanceof Error &&
  (error.name === "NotAllowedError" || (error as { code?: string }).code === "ERROR_CEREMONY_ABORTED");

async function passkeySession(): Promise<BrowserSession> {
  const { data } = await http.post<{ challengeId: string; options: PublicKeyCredentialRequestOptionsJSON }>(
    "/auth/passkey/options",
  );
  // Loaded only when asked for: the sign-in page's first load stays small.
  const { startAuthentication } = await import("@simplewebauthn/browser");
  const response = await startAuthentication({ optionsJSON: data.options });
  return (await http.post<BrowserSession>("/auth/passkey", { challengeId: data.challengeId, response })).data;
}

async function signInWithPasskey(): Promise<AuthActionResponse> {
  try {
    return startSession(await passkeySession());
  } catch (error) {
    if (isPasskeyPromptDismissed(error)) {
      return { success: false, error: { name: SIGN_IN_FAILED, message: t("auth.passkeyNotUsed") } };
    }
    if (toHttpError(error).statusCode === 401) {
      return { success: false, error: { name: SIGN_IN_FAILED, message: t("auth.passkeyRefused") } };
    }
    return failure(SIGN_IN_FAILED, error);
  }
}

async function signInSecondStep({ challenge, code, recoveryCode }: SignInVariables): Promise<AuthActionResponse> {
  try {
    const body = code !== undefined ? { challenge, code } : { challenge, recoveryCode };
    return startSession((await http.post<BrowserSession>("/auth/login/two-factor", body)).data);
  } catch (error) {
    return secondStepFailure(error);
  }
}

export const authProvider: AuthProvider = {
  /**
   * A password, Google, a passkey, or the second step. A password of an account with two-factor
   * answers no session but `{ success: false, twoFactorChallenge }` (no redirect, no notification:
   * the sign-in page shows its code step).
   */
  login: async (variables: SignInVariables) => {
    const { email, password, providerName, credential } = variables;
    if (providerName === "passkey") return signInWithPasskey();
    if (variables.challenge) return signInSecondStep(variables);
    try {
      if (providerName === "google") {
        return startSession((await http.post<BrowserSession>("/auth/google", { credential })).data);
      }
      const { data } = await http.post<BrowserSession | TwoFactorRequired>("/auth/login", { email, password });
      if ("twoFactorRequired" in data) return { success: false, twoFactorChallenge: data.challenge };
      return startSession(data);
    } catch (error) {
      return failure(SIGN_IN_FAILED, error);
    }
  },

  register: async ({ email, password, displayName }: SignUpVariables) => {
    try {
      const { data } = await http.post<BrowserSession>("/auth/signup", { email, password, displayName });
      return startSession(data);
    } catch (error) {
      return failure(SIGN_UP_FAILED, error);
    }
  },

  forgotPassword: async ({ email }: { email: string }) => {
    try {
      await http.post("/auth/password-reset", { email });
      return { success: true };
    } catch (error) {
      return failure(PASSWORD_RESET_FAILED, error);
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
      return failure(PASSWORD_CHANGE_FAILED, error);
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
    const { statusCode, errors } = toHttpError(error);
    if (statusCode === 401) {
      return { logout: true, redirectTo: "/login", error };
    }
    // The studio requires two-factor sign-in and this user has none yet: enrolment first.
    if (statusCode === 403 && errors?.twoFactor === "required") {
      enrolmentRequests.dispatchEvent(new Event("required"));
      return { redirectTo: ENROLMENT_PATH };
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
