import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { onFreePorts } from "./free-port";
import { createTestDatabase, type TestDatabase } from "./test-database";

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

/**
 * A real Photodrop process (`server/index.ts`, with tsx as a loader in the same process so a signal
 * reaches the server itself, SIGKILL included), as a second machine would run it.
 */
export interface AppProcess {
  url: string;
  pid: number;
  /** Everything it wrote to stdout and stderr. */
  log(): string;
  /** Sends a signal without waiting (SIGKILL to play a crash). */
  kill(signal: NodeJS.Signals): void;
  /** SIGTERM, SIGKILL after 10 s; resolves once it has exited. */
  stop(): Promise<void>;
}

/** A Photodrop server process that has said it listens at `url`. */
export interface ListeningPhotodrop {
  child: ChildProcess;
  port: number;
  url: string;
  /** Everything it wrote to stdout and stderr. */
  output(): string;
}

/**
 * Runs `node <args>` (a Photodrop server: `server/index.ts` under tsx) with HOST=127.0.0.1 on a
 * free port and resolves once its own start banner says it is running there: that line comes from
 * this process, so whatever answers at `url` is this process. A port another process took first
 * is picked again (onFreePorts). `env` is given the port it will listen on.
 */
export function spawnPhotodrop(
  args: string[],
  env: (port: number) => NodeJS.ProcessEnv,
  opts: { onOutput?: (chunk: Buffer) => void; pick?: () => Promise<number> } = {},
): Promise<ListeningPhotodrop> {
  return onFreePorts(
    1,
    async ([port]) => {
      const url = `http://127.0.0.1:${port}`;
      const child = spawn(process.execPath, args, {
        cwd: repoRoot,
        env: { ...env(port), HOST: "127.0.0.1", PORT: String(port) },
        stdio: ["ignore", "pipe", "pipe"],
      });
      let output = "";
      await new Promise<void>((resolve, reject) => {
        const fail = (why: string) => {
          clearTimeout(timeout);
          reject(new Error(`The process ${why}:\n${output.slice(-4000)}`));
        };
        const timeout = setTimeout(() => (child.kill("SIGKILL"), fail(`did not start at ${url}`)), 60_000);
        const take = (chunk: Buffer) => {
          output += chunk.toString();
          opts.onOutput?.(chunk);
          if (output.includes(` is running at ${url}\n`)) {
            clearTimeout(timeout);
            resolve();
          }
        };
        child.stdout?.on("data", take);
        child.stderr?.on("data", take);
        // "close", not "exit": its last words (EADDRINUSE) are read by then.
        child.once("close", () => fail("exited at start"));
      });
      return { child, port, url, output: () => output };
    },
    opts.pick,
  );
}

/** Starts one on a free port with `env` on top of a quiet default environment; resolves once /readyz answers 200. */
export async function startAppProcess(env: Record<string, string>): Promise<AppProcess> {
  const { child, url, output } = await spawnPhotodrop(["--import", "tsx", "server/index.ts"], () => ({
    PATH: process.env.PATH ?? "",
    HOME: process.env.HOME ?? "",
    SEED_DEMO: "0",
    LOG_LEVEL: "warn",
    ...env,
  }));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));

  // It listens (its banner said so); its checks may still be settling.
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null)
      throw new Error(`The process exited at start:\n${output().slice(-4000)}`);
    if (Date.now() > deadline) {
      child.kill("SIGKILL");
      throw new Error(`The process was not ready at ${url}:\n${output().slice(-4000)}`);
    }
    const ready = await fetch(`${url}/readyz`).then(
      (res) => res.ok,
      () => false,
    );
    if (ready) break;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }

  return {
    url,
    pid: child.pid ?? 0,
    log: output,
    kill: (signal) => void child.kill(signal),
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const force = setTimeout(() => child.kill("SIGKILL"), 10_000);
      child.kill("SIGTERM");
      await exited;
      clearTimeout(force);
    },
  };
}

/** The folders a process would be given, all in `dir` (shared storage in a real setup). */
export function dataFolders(dir: string): Record<string, string> {
  for (const sub of ["uploads", "published"]) fs.mkdirSync(path.join(dir, sub), { recursive: true });
  return { UPLOADS_DIR: path.join(dir, "uploads"), PUBLISHED_DIR: path.join(dir, "published") };
}

/** Starts the process's peak RSS (VmHWM) again from its current RSS. */
export function resetPeakMemory(pid: number): void {
  fs.writeFileSync(`/proc/${pid}/clear_refs`, "5");
}

/** A process's resident memory now and its peak so far, in bytes (Linux's VmRSS and VmHWM). */
export function memoryOf(pid: number): { rss: number; peak: number } {
  const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
  const kB = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)?.[1]) * 1024;
  return { rss: kB("VmRSS"), peak: kB("VmHWM") };
}

export interface TwoProcesses {
  dir: string;
  database: TestDatabase;
  /** What both were started with. */
  env: Record<string, string>;
  a: AppProcess;
  b: AppProcess;
  stop(): Promise<void>;
}

/**
 * Two real processes on one fresh PostgreSQL database and one data folder, each on its own port,
 * as behind a load balancer; started one after the other (the first runs the migrations).
 */
export async function startTwoProcesses(prefix: string, env: Record<string, string> = {}): Promise<TwoProcesses> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  const database = await createTestDatabase(dir);
  const all = { ...env, DATABASE_URL: database.url, ...dataFolders(dir) };
  const a = await startAppProcess(all);
  const b = await startAppProcess(all);
  return {
    dir,
    database,
    env: all,
    a,
    b,
    async stop() {
      await Promise.all([a.stop(), b.stop()]);
      await database.drop();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
