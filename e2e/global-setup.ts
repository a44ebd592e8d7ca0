import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { JWK } from "jose";
import type { TestProject } from "vitest/node";
import { spawnPhotodrop } from "../server/test/app-process";
import { stopProcess as stop } from "./server-process";
import { GOOGLE_CLIENT_ID, GOOGLE_ISSUER, startGoogleIssuer } from "./google-issuer";

declare module "vitest" {
  export interface ProvidedContext {
    baseUrl: string;
    adminEmail: string;
    adminPassword: string;
    googleSigningKey: JWK;
    /** The server's data: `photodrop.sqlite3`, `uploads/`, `published/` (for arrangements made by SQL). */
    dataDir: string;
  }
}

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const ADMIN_EMAIL = "admin@photodrop.test";
const ADMIN_PASSWORD = "e2e-Admin-password-1";

// Vitest sets NODE_ENV=test, which would give a development build of React and a server that
// does not run the way it runs for real.
const productionEnv = () => ({ ...process.env, NODE_ENV: "production" });

function run(command: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: repoRoot, stdio: "inherit", env: productionEnv() });
    child.once("error", reject);
    child.once("exit", (code) =>
      code === 0 ? resolve() : reject(new Error(`${command} ${args.join(" ")} exited with ${code}`)),
    );
  });
}

function newestChange(entry: string): number {
  const stat = fs.statSync(entry);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(stat.mtimeMs, ...fs.readdirSync(entry).map((name) => newestChange(path.join(entry, name))));
}

/** A missing build, or one older than the web app's sources, would test yesterday's app. */
function adminBuildIsCurrent(): boolean {
  const built = path.join(repoRoot, "admin/dist/index.html");
  if (!fs.existsSync(built)) return false;
  const sources = ["admin/src", "admin/index.html", "admin/vite.config.ts"].map((p) => path.join(repoRoot, p));
  return fs.statSync(built).mtimeMs >= Math.max(...sources.map(newestChange));
}

/** Builds the web app when needed and runs the real server over a throw-away database. */
export default async function setup(project: TestProject) {
  if (!adminBuildIsCurrent()) {
    await run("npm", ["run", "build:admin"]);
  }
  fs.mkdirSync(path.join(repoRoot, "e2e/screenshots"), { recursive: true });

  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "photodrop-e2e-"));
  for (const folder of ["uploads", "published"]) fs.mkdirSync(path.join(dataDir, folder));
  const google = await startGoogleIssuer();
  const log = fs.openSync(path.join(dataDir, "server.log"), "a");
  // Its last lines may come after it has been stopped and the log closed.
  let logOpen = true;
  let started: Awaited<ReturnType<typeof spawnPhotodrop>>;
  try {
    started = await spawnPhotodrop(
      [path.join(repoRoot, "node_modules/tsx/dist/cli.mjs"), "server/index.ts"],
      () => ({
        ...productionEnv(),
        DATABASE_URL: path.join(dataDir, "photodrop.sqlite3"),
        UPLOADS_DIR: path.join(dataDir, "uploads"),
        PUBLISHED_DIR: path.join(dataDir, "published"),
        SEED_DEMO: "0",
        ADMIN_EMAIL,
        ADMIN_PASSWORD,
        LOG_LEVEL: "warn",
        GOOGLE_CLIENT_ID,
        GOOGLE_ISSUER,
        GOOGLE_JWKS_URL: google.jwksUrl,
        // Every journey signs in; the production limits would turn later journeys into 429s.
        RATE_LIMIT_PER_IP: "1000",
        RATE_LIMIT_PER_ACCOUNT: "1000",
      }),
      { onOutput: (chunk) => logOpen && fs.writeSync(log, chunk) },
    );
  } catch (error) {
    await google.close();
    throw error;
  }
  const { child: server, url: baseUrl } = started;

  project.provide("baseUrl", baseUrl);
  project.provide("adminEmail", ADMIN_EMAIL);
  project.provide("adminPassword", ADMIN_PASSWORD);
  project.provide("googleSigningKey", google.privateJwk);
  project.provide("dataDir", dataDir);

  return async () => {
    await stop(server);
    await google.close();
    logOpen = false;
    fs.closeSync(log);
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
}
