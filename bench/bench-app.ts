/** What the list benches share: a context over a fresh temp database, a listening server, the bare baseline. */
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import type { AddressInfo } from "node:net";
import express from "express";
import { loadConfig } from "../server/config";
import { closeContext, createContext } from "../server/bootstrap";
import { benchDatabase } from "./bench-database";
import { createLogger } from "../server/logger";
import { expressBornServerOptions } from "../server/http/express-born";

/** `env`: settings on top of the bench's own (a temp database and folders, no demo data, no log). */
export async function benchContext(prefix: string, env: Record<string, string> = {}) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  const database = await benchDatabase(dir);
  console.log(`database: ${database.label}`);
  const config = loadConfig({
    DATABASE_URL: database.url,
    UPLOADS_DIR: path.join(dir, "uploads"),
    PUBLISHED_DIR: path.join(dir, "published"),
    SEED_DEMO: "0",
    LOG_LEVEL: "silent",
    ...env,
  });
  const ctx = await createContext(config, createLogger(config.logLevel));
  return {
    ctx,
    dir,
    async close() {
      await closeContext(ctx);
      await database.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

export function listen(
  app: http.RequestListener,
  options: http.ServerOptions = {},
): Promise<{ server: http.Server; base: string }> {
  const server = http.createServer(options, app);
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () =>
      resolve({ server, base: `http://127.0.0.1:${(server.address() as AddressInfo).port}` }),
    ),
  );
}

/**
 * The baseline: a bare Express handler answering 25 fixed project-like objects as JSON. `born`: its
 * server makes requests with Express's prototypes from the start, as Photodrop's does
 * (server/http/express-born.ts).
 */
export function listenBareBaseline({ born = false } = {}) {
  const fixed = Array.from({ length: 25 }, (_, i) => ({
    id: i + 1,
    name: `Project ${i + 1}`,
    attachmentCount: i,
    totalFileSize: i * 1000,
  }));
  const bare = express();
  bare.get("/fixed", (_req, res) => {
    res.json(fixed);
  });
  return listen(bare, born ? expressBornServerOptions(bare) : {});
}
