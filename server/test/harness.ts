import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import crypto from "node:crypto";
import { loadConfig, type Config } from "../config";
import { closeContext, createContext } from "../bootstrap";
import { createApp, type AppHandler } from "../app";
import { cancelAllPublishes } from "../publish/publish.service";
import type { AppContext } from "../context";
import { createLogger } from "../logger";
import { nowIso } from "../db/database";
import type { Role } from "../../api/types";
import { createTestDatabase } from "./test-database";
import { testStorageEnv } from "./test-storage";

export interface TestApp {
  app: AppHandler;
  ctx: AppContext;
  dir: string;
  /** Every log line, when created with `captureLog`. */
  logLines: string[];
  close(): Promise<void>;
}

/**
 * The real app over a fresh sqlite file and fresh data folders in a temp directory; under
 * `npm run test:pg` over a fresh PostgreSQL database instead, unless `sqliteOnly` (a test of
 * sqlite itself); under `npm run test:s3` with its files in object storage. `env` overrides any
 * environment variable the contract lists.
 */
export async function createTestApp(
  env: Record<string, string> = {},
  opts: { captureLog?: boolean; sqliteOnly?: boolean } = {},
): Promise<TestApp> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "photodrop-test-"));
  const database = await createTestDatabase(dir, { sqliteOnly: opts.sqliteOnly, migrated: true });
  const config: Config = loadConfig({
    DATABASE_URL: database.url,
    UPLOADS_DIR: path.join(dir, "uploads"),
    PUBLISHED_DIR: path.join(dir, "published"),
    SEED_DEMO: "0",
    LOG_LEVEL: "silent",
    ...testStorageEnv(env),
    ...env,
  });
  const logLines: string[] = [];
  const logger = opts.captureLog
    ? createLogger("trace", { write: (line: string) => void logLines.push(line) })
    : createLogger(config.logLevel);
  const ctx = await createContext(config, logger);
  const app = createApp(ctx);
  return {
    app,
    ctx,
    dir,
    logLines,
    async close() {
      // As the server does when it stops: no build writes on into a closed database or a removed folder.
      await cancelAllPublishes(ctx);
      await closeContext(ctx);
      await database.drop();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface TestUser {
  uid: string;
  email: string;
  token: string;
  /** `{Authorization: 'Bearer …'}` for supertest's `.set()`. */
  auth: { Authorization: string };
}

/**
 * Arranges a user row directly and signs a real access token for it with the server's own key.
 * The token goes through the same verification as any other; only the sign-up step is skipped.
 */
export async function createUser(
  ctx: AppContext,
  opts: { role?: Role; hasAccess?: boolean; email?: string } = {},
): Promise<TestUser> {
  const uid = crypto.randomBytes(14).toString("base64url");
  const email = opts.email ?? `${uid.toLowerCase()}@example.test`;
  await ctx.db("users").insert({
    uid,
    email,
    role: opts.role ?? "staff",
    has_access: opts.hasAccess ?? true,
    email_verified: false,
    created_at: nowIso(),
    updated_at: nowIso(),
  });
  const token = await ctx.tokens.signAccessToken(uid);
  return { uid, email, token, auth: { Authorization: `Bearer ${token}` } };
}
