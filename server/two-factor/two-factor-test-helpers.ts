import request from "supertest";
import { expect } from "vitest";
import { Secret, TOTP } from "otpauth";
import type { AppHandler } from "../app";
import { bearer, signUp, type SessionBody } from "../auth/auth-test-helpers";
import { createTestApp, type TestApp } from "../test/harness";

/** The code an authenticator app shows for `secret` at `at` (ms), made by the TOTP library, not the server. */
export const codeAt = (secret: string, at = Date.now()): string =>
  new TOTP({ secret: Secret.fromBase32(secret), algorithm: "SHA1", digits: 6, period: 30 }).generate({
    timestamp: at,
  });

/**
 * The next step's code: after the step `enrol` took (a step is taken once), and taken now, one
 * step of drift being allowed.
 */
export const nextCode = (secret: string): string => codeAt(secret, Date.now() + 30_000);

/** Signs up an account and approves it with `admin`'s token (or none for the first, who is the admin). */
export async function approvedAccount(
  app: AppHandler,
  email: string,
  password: string,
  admin?: SessionBody,
): Promise<SessionBody> {
  const session = await signUp(app, email, password);
  if (!admin) return session;
  const approved = await request(app)
    .patch(`/api/users/${session.user.uid}`)
    .set(bearer(admin.accessToken))
    .send({ hasAccess: true });
  expect(approved.status).toBe(200);
  return session;
}

/**
 * Turns two-factor on for the session's user, confirmed with the current step's code (sign in
 * after it with `nextCode`); answers the secret and the ten recovery codes.
 */
export async function enrol(
  app: AppHandler,
  accessToken: string,
): Promise<{ secret: string; recoveryCodes: string[] }> {
  const started = await request(app).post("/api/users/me/two-factor").set(bearer(accessToken));
  expect(started.status, JSON.stringify(started.body)).toBe(200);
  const secret = started.body.secret as string;
  const confirmed = await request(app)
    .post("/api/users/me/two-factor/confirm")
    .set(bearer(accessToken))
    // The current step's, which the server still takes a step later: the previous step's was
    // refused whenever the confirm was answered after the next step had begun.
    .send({ code: codeAt(secret) });
  expect(confirmed.status, JSON.stringify(confirmed.body)).toBe(200);
  return { secret, recoveryCodes: confirmed.body.recoveryCodes as string[] };
}

/** The first step of signing in; answers the challenge (fails the test if a session came instead). */
export async function challengeFor(app: AppHandler, email: string, password: string): Promise<string> {
  const res = await request(app).post("/api/auth/login").send({ email, password });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expect(res.body).toEqual({ twoFactorRequired: true, challenge: expect.any(String) });
  return res.body.challenge as string;
}

export const secondStep = (app: AppHandler, body: Record<string, unknown>) =>
  request(app).post("/api/auth/login/two-factor").send(body);

export const BUDGET_OWNER = { email: "owner@studio.test", password: "ownerpass1" };

/**
 * An app whose sign-in budget per account is 3 failures, with its first account (the admin) signed
 * up as BUDGET_OWNER; closed once `use` ends. Ends by checking the budget is spent: the right
 * password is refused with 429 too.
 */
export async function spendingTheAccountBudget(
  use: (limited: TestApp, owner: SessionBody) => Promise<void>,
): Promise<void> {
  const limited = await createTestApp({ RATE_LIMIT_PER_ACCOUNT: "3", RATE_LIMIT_PER_IP: "1000" });
  try {
    await use(limited, await approvedAccount(limited.app, BUDGET_OWNER.email, BUDGET_OWNER.password));
    const password = await request(limited.app).post("/api/auth/login").send(BUDGET_OWNER);
    expect(password.status).toBe(429);
  } finally {
    await limited.close();
  }
}
