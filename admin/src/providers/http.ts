import axios, { type AxiosError, type InternalAxiosRequestConfig } from "axios";
import type { HttpError, ValidationErrors } from "@refinedev/core";
import { withStorageLock } from "../lib/storage-lock";
import {
  clearSession,
  readSession,
  signedInUid,
  writeSession,
  type BrowserSession,
  type StoredSession,
} from "./session";
import { t } from "../i18n";
import { inWebAppLanguage } from "../lib/server-messages";

/** The one HTTP client of the web app: base path, timeout, bearer token, refresh and error shape. */
// The header asks the server to keep the refresh token in its HttpOnly cookie (and is what makes
// that cookie usable: a cross-site form cannot send it).
export const http = axios.create({ baseURL: "/api", timeout: 30_000, headers: { "X-Photodrop-Session": "cookie" } });

const REFRESH_BEFORE_EXPIRY_MS = 5 * 60_000;

type RetriableConfig = InternalAxiosRequestConfig & { retriedAfterRefresh?: boolean };

// The identity endpoints take no bearer token and must not trigger a refresh themselves.
const isIdentityCall = (url: string | undefined) => Boolean(url?.startsWith("/auth/"));

let refreshInFlight: Promise<StoredSession | null> | null = null;

const needsRefresh = (session: StoredSession) =>
  // Short-lived tokens (tests, strict setups) are refreshed at half their life instead.
  session.expiresAt - Date.now() <= Math.min(REFRESH_BEFORE_EXPIRY_MS, (session.expiresIn * 1000) / 2);

/**
 * Exchanges the refresh cookie for a new session, once per tab however many requests ask. Tabs
 * share the cookie and the server treats a reused refresh token as theft, so tabs take turns (Web
 * Locks, or a localStorage lock where those are missing): each refreshes with the cookie the one
 * before it left. `staleAccessToken` is the token
 * the caller found wanting ("" after a reload, when this tab has none yet).
 */
export function refreshSession(staleAccessToken: string): Promise<StoredSession | null> {
  refreshInFlight ??= withRefreshLock(() => refreshUnlessDone(staleAccessToken)).finally(() => {
    refreshInFlight = null;
  });
  return refreshInFlight;
}

async function withRefreshLock<T>(task: () => Promise<T>): Promise<T> {
  // Web Locks exist only in a secure context; over plain HTTP at a LAN address, tabs use localStorage.
  if (!navigator.locks) return withStorageLock("refresh", task);
  return (await navigator.locks.request("photodrop.refresh", task)) as T;
}

async function refreshUnlessDone(staleAccessToken: string): Promise<StoredSession | null> {
  const current = readSession();
  if (!current && !signedInUid()) return null;
  if (current && current.accessToken !== staleAccessToken && !needsRefresh(current)) return current;
  try {
    const { data } = await http.post<BrowserSession>("/auth/refresh");
    return writeSession(data);
  } catch (error) {
    const { statusCode, message } = toHttpError(error);
    if (statusCode === 400 || statusCode === 401) {
      clearSession();
      return null;
    }
    console.error("Failed to refresh the access token:", message);
    return readSession();
  }
}

/** A token good for at least a few more minutes, or null when there is no session. */
export async function freshAccessToken(): Promise<string | null> {
  const session = readSession();
  if (session && !needsRefresh(session)) return session.accessToken;
  if (!session && !signedInUid()) return null;
  const refreshed = await refreshSession(session?.accessToken ?? "");
  return refreshed?.accessToken ?? null;
}

http.interceptors.request.use(async (config) => {
  if (isIdentityCall(config.url)) return config;
  try {
    const token = await freshAccessToken();
    if (token) config.headers.set("Authorization", `Bearer ${token}`);
  } catch (error) {
    console.error("Failed to get an access token; sending the request without one", error);
  }
  return config;
});

http.interceptors.response.use(undefined, async (error: AxiosError) => {
  const config = error.config as RetriableConfig | undefined;
  // A token revoked or expired early (clock skew, server restart with new keys) gets one refresh.
  if (
    error.response?.status === 401 &&
    config &&
    !config.retriedAfterRefresh &&
    !isIdentityCall(config.url) &&
    readSession()
  ) {
    config.retriedAfterRefresh = true;
    const sentToken = String(config.headers.get("Authorization") ?? "").replace(/^Bearer /, "");
    const refreshed = await refreshSession(sentToken);
    if (refreshed) {
      config.headers.set("Authorization", `Bearer ${refreshed.accessToken}`);
      return http.request(config);
    }
  }
  return Promise.reject(toHttpError(error));
});

/** Maps any failure to refine's `{message, statusCode, errors}` so forms can show field errors. */
export function toHttpError(error: unknown): HttpError {
  if (isHttpError(error)) return error;
  if (axios.isAxiosError(error)) {
    const response = error.response;
    if (response) {
      const body = (response.data ?? {}) as {
        message?: unknown;
        errors?: unknown;
        current?: unknown;
        changedBy?: unknown;
      };
      const sent = typeof body.message === "string" && body.message ? body.message : null;
      const message = sent ?? t("app.requestFailed", { status: response.status, statusText: response.statusText });
      const error = inWebAppLanguage({ message, statusCode: response.status, errors: validationErrors(body.errors) });
      // An answer without a message (a proxy's 502, say): callers may say it their own way.
      if (!sent) error.withoutServerMessage = true;
      // A write refused because the record changed since the form was filled: the record as it is now, and who saved it.
      if (response.status === 412 && typeof body.current === "object" && body.current !== null) {
        error.current = body.current;
        error.changedBy = body.changedBy ?? null;
      }
      return error;
    }
    if (error.code === "ECONNABORTED" || error.code === "ETIMEDOUT") {
      return { message: t("app.serverTimedOut"), statusCode: 0 };
    }
    return { message: t("app.serverUnreachable"), statusCode: 0 };
  }
  return { message: error instanceof Error ? error.message : t("app.unexpectedError"), statusCode: 0 };
}

function isHttpError(value: unknown): value is HttpError {
  return (
    typeof value === "object" &&
    value !== null &&
    !axios.isAxiosError(value) &&
    typeof (value as HttpError).message === "string" &&
    typeof (value as HttpError).statusCode === "number"
  );
}

function validationErrors(value: unknown): ValidationErrors | undefined {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return undefined;
  const entries = Object.entries(value).filter(([, message]) => typeof message === "string");
  return entries.length ? (Object.fromEntries(entries) as ValidationErrors) : undefined;
}
