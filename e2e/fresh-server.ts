import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

export interface FreshServer {
  baseUrl: string;
  /** The server's log so far (mail is written there: no SMTP_URL). */
  log(): string;
  stop(): Promise<void>;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

function stop(server: ChildProcess): Promise<void> {
  if (server.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const kill = setTimeout(() => server.kill("SIGKILL"), 10_000);
    server.once("exit", () => {
      clearTimeout(kill);
      resolve();
    });
    server.kill("SIGTERM");
  });
}

/**
 * A second real server, as a studio installs it for the first time: an empty database, no demo
 * data and no ADMIN_EMAIL, so the first account signed up becomes the admin. It serves the web
 * app the global setup built.
 */
export async function startFreshServer(): Promise<FreshServer> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "photodrop-e2e-fresh-"));
  for (const folder of ["uploads", "published"]) fs.mkdirSync(path.join(dataDir, folder));
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const logFile = path.join(dataDir, "server.log");
  const log = fs.openSync(logFile, "a");
  const { ADMIN_EMAIL: _email, ADMIN_PASSWORD: _password, ...env } = process.env;
  const server = spawn(process.execPath, [path.join(repoRoot, "node_modules/tsx/dist/cli.mjs"), "server/index.ts"], {
    cwd: repoRoot,
    stdio: ["ignore", log, log],
    env: {
      ...env,
      NODE_ENV: "production",
      PORT: String(port),
      HOST: "127.0.0.1",
      DATABASE_URL: path.join(dataDir, "photodrop.sqlite3"),
      UPLOADS_DIR: path.join(dataDir, "uploads"),
      PUBLISHED_DIR: path.join(dataDir, "published"),
      SEED_DEMO: "0",
      LOG_LEVEL: "info",
      RATE_LIMIT_PER_IP: "1000",
      RATE_LIMIT_PER_ACCOUNT: "1000",
    },
  });
  const readLog = () => (fs.existsSync(logFile) ? fs.readFileSync(logFile, "utf8") : "");
  const close = async () => {
    await stop(server);
    fs.closeSync(log);
    fs.rmSync(dataDir, { recursive: true, force: true });
  };

  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline && server.exitCode === null) {
    try {
      if ((await fetch(`${baseUrl}/login`)).ok) return { baseUrl, log: readLog, stop: close };
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  const tail = readLog().slice(-4000);
  await close();
  throw new Error(`The fresh server did not start at ${baseUrl}:\n${tail}`);
}
