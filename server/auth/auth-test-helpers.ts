import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import request from "supertest";
import type { Express } from "express";
import { expect } from "vitest";
import { loadConfig } from "../config";
import { createContext } from "../bootstrap";
import { createApp } from "../app";
import { createLogger } from "../logger";

/** Limits high enough that a test file's many sign-ins from 127.0.0.1 never trip them. */
export const RELAXED_LIMITS = { RATE_LIMIT_PER_IP: "100000", RATE_LIMIT_PER_ACCOUNT: "100000" };

export interface SessionBody {
  accessToken: string;
  refreshToken: string;
  expiresIn: number;
  user: { uid: string; email: string; role: string; hasAccess: boolean; [k: string]: unknown };
}

export async function signUp(app: Express, email: string, password = "secret123", extra: Record<string, unknown> = {}): Promise<SessionBody> {
  const res = await request(app).post("/api/auth/signup").send({ email, password, ...extra });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as SessionBody;
}

export const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

/** The real app as createTestApp builds it, with its log lines kept in `lines` so tests can read them. */
export async function createLoggedTestApp(env: Record<string, string> = {}) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "photodrop-auth-log-"));
  const lines: string[] = [];
  const config = loadConfig({
    DATABASE_URL: path.join(dir, "db.sqlite3"),
    UPLOADS_DIR: path.join(dir, "uploads"),
    PUBLISHED_DIR: path.join(dir, "published"),
    SEED_DEMO: "0",
    ...RELAXED_LIMITS,
    ...env,
  });
  const ctx = await createContext(config, createLogger("trace", { write: (line: string) => void lines.push(line) }));
  const app = createApp(ctx);
  return {
    app,
    ctx,
    lines,
    log: () => lines.join(""),
    async close() {
      await ctx.db.destroy();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Polls until `check` passes or the time is up; for work the server finishes after answering. */
export async function eventually<T>(check: () => T | undefined, timeoutMs = 5000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error("timed out waiting");
    await new Promise((r) => setTimeout(r, 20));
  }
}
