/** A bench's server as a process of its own, so the load generator never shares its event loop or CPU time. */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import readline from "node:readline";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

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

/** What package.json's start script runs after its build: environment assignments, node's flags, the entry point. */
export function npmStartCommand(): { env: Record<string, string>; nodeFlags: string[]; entry: string } {
  const { scripts } = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8")) as {
    scripts: { start: string };
  };
  const words = scripts.start.split("&&").at(-1)!.trim().split(/\s+/);
  const node = words.indexOf("node");
  const env = Object.fromEntries(words.slice(0, node).map((w) => w.split("=") as [string, string]));
  return { env, nodeFlags: words.slice(node + 1, -1), entry: words.at(-1)! };
}

/**
 * The server as `npm start` runs it: the build brought up to date (`scripts/build.mjs --if-needed`),
 * then the same command, environment and node flags, so a bench never drifts from what users run.
 * `env` adds to (or overrides) the rest. Ready with its address once it prints `running at`.
 */
export function startAsNpmStart(env: Record<string, string>): BenchProcess<string> {
  const built = spawnSync(process.execPath, ["scripts/build.mjs", "--if-needed"], { cwd: root, stdio: "inherit" });
  if (built.status !== 0) throw new Error(`the build failed (${built.status})`);
  const command = npmStartCommand();
  return startBenchProcess(
    [...command.nodeFlags, command.entry],
    (line) => line.match(/running at (http:\/\/\S+)/)?.[1],
    {
      env: { ...command.env, ...env },
      transpile: false,
    },
  );
}
