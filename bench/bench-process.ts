/** A bench's server as a process of its own, so the load generator never shares its event loop or CPU time. */
import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import readline from "node:readline";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

export interface BenchProcess<T> {
  child: ChildProcess;
  /** What `readyIn` found in the first line of output it recognised. */
  ready: Promise<T>;
  /** Ends it with SIGTERM and waits for it to exit. */
  stop(): Promise<void>;
}

/**
 * Runs a TypeScript entry point (a path from the project's root) with tsx. Each line it prints is
 * given to `readyIn` until that answers something; `echo` prints the lines it did not recognise.
 */
export function startBenchProcess<T>(
  args: string[],
  readyIn: (line: string) => T | undefined,
  { env = {}, echo = false }: { env?: Record<string, string>; echo?: boolean } = {},
): BenchProcess<T> {
  const child = spawn(process.execPath, ["--import", "tsx", ...args], {
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
  return { child, ready, stop };
}
