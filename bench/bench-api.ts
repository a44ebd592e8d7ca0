import crypto from "node:crypto";

/** The admin a bench's server is started with (ADMIN_EMAIL, ADMIN_PASSWORD) and signs in as: a fresh password each run. */
export const BENCH_ADMIN = { email: "bench@photodrop.local", password: crypto.randomBytes(12).toString("base64url") };
/** The server's environment that makes BENCH_ADMIN its admin. */
export const BENCH_ADMIN_ENV = { ADMIN_EMAIL: BENCH_ADMIN.email, ADMIN_PASSWORD: BENCH_ADMIN.password };

/** The server's API as the benches call it: every answer must have the expected status. */
export async function benchApi<T>(base: string, route: string, init: RequestInit, expected: number): Promise<T> {
  const res = await fetch(`${base}${route}`, init);
  if (res.status !== expected) throw new Error(`${init.method ?? "GET"} ${route}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

/** Signs the bench's admin in: the access token. */
export async function benchSignIn(base: string, admin: { email: string; password: string }): Promise<string> {
  const session = await benchApi<{ accessToken: string }>(
    base,
    "/api/auth/login",
    { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(admin) },
    200,
  );
  return session.accessToken;
}
