import request from "supertest";
import type { AppHandler } from "../app";
import { expect } from "vitest";
import { createTestApp } from "../test/harness";

/** Limits high enough that a test file's many sign-ins from 127.0.0.1 never trip them. */
export const RELAXED_LIMITS = { RATE_LIMIT_PER_IP: "100000", RATE_LIMIT_PER_ACCOUNT: "100000" };

export interface SessionBody {
  accessToken: string;
  refreshToken: string;
  expiresIn: number;
  user: { uid: string; email: string; role: string; hasAccess: boolean; [k: string]: unknown };
}

export async function signUp(
  app: AppHandler | string,
  email: string,
  password = "secret123",
  extra: Record<string, unknown> = {},
): Promise<SessionBody> {
  const res = await request(app)
    .post("/api/auth/signup")
    .send({ email, password, ...extra });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as SessionBody;
}

export const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

/** The real app, relaxed limits, with its log lines kept in `lines` so tests can read them. */
export async function createLoggedTestApp(env: Record<string, string> = {}) {
  const t = await createTestApp({ ...RELAXED_LIMITS, ...env }, { captureLog: true });
  return { ...t, lines: t.logLines, log: () => t.logLines.join("") };
}
