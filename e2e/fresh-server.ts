import type { ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { spawnPhotodrop } from "../server/test/app-process";
import { stopProcess as stop } from "./server-process";

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

export interface FreshServer {
  baseUrl: string;
  /** Its sqlite file and photo folder, for arrangements made by SQL. */
  databaseFile: string;
  uploadsDir: string;
  /** The server's log so far (mail is written there: no SMTP_URL). */
  log(): string;
  stop(): Promise<void>;
}

/**
 * A second real server, as a studio installs it for the first time: an empty database, no demo
 * data and no ADMIN_EMAIL, so the first account signed up becomes the admin. It serves the web
 * app the global setup built. `env` adds settings (given the port it will listen on).
 */
export async function startFreshServer(
  env: (port: number) => Record<string, string> = () => ({}),
): Promise<FreshServer> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "photodrop-e2e-fresh-"));
  for (const folder of ["uploads", "published"]) fs.mkdirSync(path.join(dataDir, folder));
  const logFile = path.join(dataDir, "server.log");
  const log = fs.openSync(logFile, "a");
  // Its last lines may come after it has been stopped and the log closed.
  let logOpen = true;
  const { ADMIN_EMAIL: _email, ADMIN_PASSWORD: _password, ...inherited } = process.env;
  const readLog = () => (fs.existsSync(logFile) ? fs.readFileSync(logFile, "utf8") : "");
  let server: ChildProcess | undefined;
  const close = async () => {
    if (server) await stop(server);
    logOpen = false;
    fs.closeSync(log);
    fs.rmSync(dataDir, { recursive: true, force: true });
  };

  let baseUrl: string;
  try {
    ({ child: server, url: baseUrl } = await spawnPhotodrop(
      [path.join(repoRoot, "node_modules/tsx/dist/cli.mjs"), "server/index.ts"],
      (port) => ({
        ...inherited,
        NODE_ENV: "production",
        DATABASE_URL: path.join(dataDir, "photodrop.sqlite3"),
        UPLOADS_DIR: path.join(dataDir, "uploads"),
        PUBLISHED_DIR: path.join(dataDir, "published"),
        SEED_DEMO: "0",
        LOG_LEVEL: "info",
        RATE_LIMIT_PER_IP: "1000",
        RATE_LIMIT_PER_ACCOUNT: "1000",
        ...env(port),
      }),
      { onOutput: (chunk) => logOpen && fs.writeSync(log, chunk) },
    ));
  } catch (error) {
    await close();
    throw error;
  }
  return {
    baseUrl,
    databaseFile: path.join(dataDir, "photodrop.sqlite3"),
    uploadsDir: path.join(dataDir, "uploads"),
    log: readLog,
    stop: close,
  };
}
