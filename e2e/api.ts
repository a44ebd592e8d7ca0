import { inject } from "vitest";

/** A session as POST /api/auth/login answers it. */
export async function logIn(
  email: string,
  password: string,
  baseUrl = inject("baseUrl"),
): Promise<{ accessToken: string; expiresIn: number }> {
  const response = await fetch(`${baseUrl}/api/auth/login`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ email, password }),
  });
  if (!response.ok) throw new Error(`Sign-in failed: ${response.status}`);
  return (await response.json()) as { accessToken: string; expiresIn: number };
}

/** Arranges data through the real API, the way another staff member would have created it. */
export async function adminToken(): Promise<string> {
  return (await logIn(inject("adminEmail"), inject("adminPassword"))).accessToken;
}

export async function create<T>(
  token: string,
  resource: string,
  body: object,
  baseUrl = inject("baseUrl"),
): Promise<T> {
  const response = await fetch(`${baseUrl}/api/${resource}`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Authorization: `Bearer ${token}` },
    body: JSON.stringify(body),
  });
  if (response.status !== 201)
    throw new Error(`Creating ${resource} failed: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

export async function getJson<T>(token: string, path: string, baseUrl = inject("baseUrl")): Promise<T> {
  const response = await fetch(`${baseUrl}/api/${path}`, { headers: { Authorization: `Bearer ${token}` } });
  if (!response.ok) throw new Error(`GET ${path} failed: ${response.status}`);
  return (await response.json()) as T;
}

/** Any call with an optional JSON body and bearer token: its status and parsed answer (null when empty). */
export async function callJson(
  method: string,
  route: string,
  body?: object,
  token?: string,
  baseUrl = inject("baseUrl"),
): Promise<{ status: number; body: ReturnType<typeof JSON.parse> }> {
  const res = await fetch(`${baseUrl}${route}`, {
    method,
    headers: { "Content-Type": "application/json", ...(token ? { Authorization: `Bearer ${token}` } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

/** PUT of a JSON body (settings, say); the caller checks the answer. */
export function putJson(token: string, path: string, body: object, baseUrl = inject("baseUrl")): Promise<Response> {
  return fetch(`${baseUrl}/api/${path}`, {
    method: "PUT",
    headers: { "Content-Type": "application/json", Authorization: `Bearer ${token}` },
    body: JSON.stringify(body),
  });
}

/**
 * A new account that nobody has approved yet (the first of a fresh installation is its admin):
 * answers its access token.
 */
export async function signUpAccount(
  email: string,
  password: string,
  displayName?: string,
  baseUrl = inject("baseUrl"),
): Promise<string> {
  const response = await fetch(`${baseUrl}/api/auth/signup`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ email, password, displayName }),
  });
  if (response.status !== 201) throw new Error(`Sign-up failed: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { accessToken: string }).accessToken;
}
