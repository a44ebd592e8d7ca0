import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { onFreePorts, portsListenedBy } from "./free-port";

export const CADDY = "/usr/bin/caddy";
export const CADDYFILE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../deploy/Caddyfile");

/**
 * Where Caddy is missing (a developer's machine without Debian's caddy package) its tests are
 * skipped, visibly; in CI (CI=true) they run and fail, so a CI without caddy cannot pass them.
 */
export const noCaddyHere = !fs.existsSync(CADDY) && !process.env.CI;

/** deploy/Caddyfile with `replacements` made, each of which must be found there. */
export function caddySite(replacements: Array<[string, string]>): string {
  if (!fs.existsSync(CADDY)) throw new Error(`${CADDY} is missing: apt-get install caddy (Debian's package)`);
  return replacements.reduce(
    (text, [from, to]) => {
      if (!text.includes(from)) throw new Error(`deploy/Caddyfile no longer has ${from}`);
      return text.replaceAll(from, to);
    },
    fs.readFileSync(CADDYFILE, "utf8"),
  );
}

export interface RunningCaddy {
  /** Where it listens for HTTP and HTTPS on 127.0.0.1. */
  ports: { http: number; https: number };
  /** Every line it logged at error level or worse. */
  errors(): string[];
  stop(): Promise<void>;
}

/**
 * A real Caddy run from `dir` with `site` after global options that keep it to this test: no
 * admin endpoint, the given ports on loopback only, its storage (certificates, locks) and
 * autosaved config in `dir`, no attempt to install its CA into the system's trust store. On two
 * free ports (picked again when another process took one first); resolves once this Caddy
 * listens on both (its own sockets: not whoever else may answer there).
 */
export function startCaddy(dir: string, site: string, pick?: () => Promise<number>): Promise<RunningCaddy> {
  fs.mkdirSync(dir, { recursive: true });
  return onFreePorts(2, ([http, https]) => startCaddyOn(dir, site, { http, https }), pick);
}

async function startCaddyOn(dir: string, site: string, ports: { http: number; https: number }): Promise<RunningCaddy> {
  const globals = [
    "{",
    "\tadmin off",
    `\thttp_port ${ports.http}`,
    `\thttps_port ${ports.https}`,
    "\tdefault_bind 127.0.0.1",
    "\tskip_install_trust",
    `\tstorage file_system ${path.join(dir, "storage")}`,
    "\tgrace_period 2s",
    "}",
  ].join("\n");
  const config = path.join(dir, "Caddyfile");
  fs.writeFileSync(config, `${globals}\n\n${site}`);
  const child: ChildProcess = spawn(CADDY, ["run", "--config", config, "--adapter", "caddyfile"], {
    cwd: dir,
    env: { PATH: process.env.PATH ?? "", HOME: dir, XDG_DATA_HOME: dir, XDG_CONFIG_HOME: dir },
    stdio: ["ignore", "ignore", "pipe"],
  });
  let log = "";
  child.stderr?.on("data", (chunk: Buffer) => (log += chunk.toString()));
  // "close", not "exit": what it said last (a port taken) has been read by then.
  const exited = new Promise<void>((resolve) => child.once("close", () => resolve()));
  const deadline = Date.now() + 15_000;
  for (;;) {
    const listening = portsListenedBy(child.pid!);
    if (listening.has(ports.http) && listening.has(ports.https)) break;
    if (child.exitCode !== null || child.signalCode !== null || Date.now() > deadline) {
      child.kill("SIGKILL");
      await exited;
      throw new Error(`caddy did not start:\n${log}\n${fs.readFileSync(config, "utf8")}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    ports,
    errors: () => log.split("\n").filter((line) => /"level":"(error|panic|fatal)"/.test(line)),
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
      const force = setTimeout(() => child.kill("SIGKILL"), 5_000);
      await exited;
      clearTimeout(force);
    },
  };
}
