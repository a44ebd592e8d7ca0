/** A bench's server as a process of its own, so the load generator never shares its event loop or CPU time. */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import readline from "node:readline";
import { fileURLToPath } from "node:url";
import { freePort } from "../server/test/free-port";

/** The project's folder, which every bench runs from. */
export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

export interface BenchProcess<T> {
  child: ChildProcess;
  /** What `readyIn` found in the first line of output it recognised. */
  ready: Promise<T>;
  /** performance.now() when it was spawned. */
  spawnedAt: number;
  /** Ends it with SIGTERM and waits for it to exit. */
  stop(): Promise<void>;
}

/**
 * Runs a TypeScript entry point (a path from the project's root) with tsx, or with `transpile:
 * false` plain node with these arguments. Each line it prints is given to `readyIn` until that
 * answers something; `echo` prints the lines it did not recognise.
 */
export function startBenchProcess<T>(
  args: string[],
  readyIn: (line: string) => T | undefined,
  {
    env = {},
    echo = false,
    transpile = true,
  }: { env?: Record<string, string>; echo?: boolean; transpile?: boolean } = {},
): BenchProcess<T> {
  const spawnedAt = performance.now();
  const child = spawn(process.execPath, transpile ? ["--import", "tsx", ...args] : args, {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "inherit"],
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const ready = new Promise<T>((resolve, reject) => {
    let found = false;
    readline.createInterface({ input: child.stdout! }).on("line", (line) => {
      const value = found ? undefined : readyIn(line);
      if (value !== undefined) {
        found = true;
        resolve(value);
      } else if (echo) console.log(line);
    });
    void exited.then(() => reject(new Error(`${args[0]} exited with ${child.exitCode} before it was ready`)));
  });
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
    await exited;
  };
  return { child, ready, spawnedAt, stop };
}

/**
 * The server as `npm start` runs it (`productionStart`): the build brought up to date, then the
 * same command, environment and node flags, so a bench never drifts from what users run. `env`
 * adds to (or overrides) the rest. Ready with its address once it prints `running at`; its
 * `spawnedAt` times the start.
 */
export function startAsNpmStart(env: Record<string, string>): BenchProcess<string> {
  const start = productionStart();
  buildOnce(start);
  return startBenchProcess(start.nodeArgs, (line) => line.match(/running at (http:\/\/\S+)/)?.[1], {
    env: { ...start.env, ...env },
    transpile: false,
  });
}
/** How `npm start` runs the server, read from package.json's `start` script: its build step, then the environment, node flags and entry. */
export interface ProductionStart {
  build: string[];
  env: Record<string, string>;
  nodeArgs: string[];
}

/**
 * `npm start` is `<build> && VAR=value ... node <flags> <entry>`; a bench runs the same. With
 * BENCH_START set to another `VAR=value ... node <flags> <entry>` line, that is run instead (to
 * compare settings; figures go in docs/performance.md only from the real one).
 */
export function productionStart(): ProductionStart {
  const pkg = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8")) as { scripts: { start: string } };
  const [buildPart, runPart] = pkg.scripts.start.split("&&").map((part) => part.trim().split(/\s+/));
  const run = process.env.BENCH_START ? process.env.BENCH_START.trim().split(/\s+/) : runPart;
  const node = run.indexOf("node");
  if (buildPart[0] !== "node" || node < 0 || run.slice(0, node).some((t) => !t.includes("=")))
    throw new Error(`cannot read the start script: ${pkg.scripts.start}`);
  const env = Object.fromEntries(
    run.slice(0, node).map((t) => [t.slice(0, t.indexOf("=")), t.slice(t.indexOf("=") + 1)]),
  );
  return { build: buildPart.slice(1), env, nodeArgs: run.slice(node + 1) };
}

let built = false;
/** The start script's build step, once per bench run: a bench that starts the server again needs no second build. */
function buildOnce(start: ProductionStart): void {
  if (built) return;
  const result = spawnSync(process.execPath, start.build, { cwd: root, stdio: "inherit" });
  if (result.status !== 0) throw new Error(`the build failed (${result.status})`);
  built = true;
}

export interface ProductionServer {
  child: ChildProcess;
  pid: number;
  url: string;
  stop(): Promise<void>;
}

/**
 * The server as `npm start` runs it: the build brought up to date, then the compiled server with
 * the start script's node flags and environment on top of `env`, on a free port. Its output goes
 * to `logFile` (a production log, not a pipe the bench would have to read); ready once /readyz
 * answers 200.
 */
export async function startProductionServer(env: Record<string, string>, logFile: string): Promise<ProductionServer> {
  const start = productionStart();
  buildOnce(start);
  const port = await freePort();
  const log = fs.openSync(logFile, "a");
  const child = spawn(process.execPath, start.nodeArgs, {
    cwd: root,
    env: { ...process.env, ...env, ...start.env, HOST: "127.0.0.1", PORT: String(port) },
    stdio: ["ignore", log, log],
  });
  fs.closeSync(log);
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 120_000;
  while (
    !(await fetch(`${url}/readyz`).then(
      (r) => r.ok,
      () => false,
    ))
  ) {
    if (child.exitCode !== null || Date.now() > deadline) {
      child.kill("SIGKILL");
      throw new Error(`the server did not start:\n${fs.readFileSync(logFile, "utf8").slice(-3000)}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    child,
    pid: child.pid!,
    url,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
      await exited;
    },
  };
}
