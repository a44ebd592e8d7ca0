/** wrk (Debian's, C, epoll) driven from a bench: a Lua script rotates the paths, and the CPU each process used is read from /proc. */
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

export interface WrkRun {
  base: string;
  paths: string[];
  connections: number;
  seconds: number;
  headers?: Record<string, string>;
  /** Processes whose CPU time over the run is reported (pid by name); wrk's own is always added. */
  watch?: Record<string, number | undefined>;
}

export interface WrkResult {
  requests: number;
  bytes: number;
  seconds: number;
  /** Socket errors (connect, read, write, timeout) and answers of status 400 or more. */
  errors: number;
  statusErrors: number;
  p50ms: number;
  p99ms: number;
  rps: number;
  mbps: number;
  /** Share of one core each watched process used during the run, in %. */
  cpu: Record<string, number>;
}

/** CPU seconds a process (all its threads) has used, from /proc/<pid>/stat. */
export function cpuSecondsOf(pid: number): number {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

function luaScript(run: WrkRun): string {
  const paths = run.paths.map((p) => JSON.stringify(p)).join(", ");
  const headers = Object.entries(run.headers ?? {})
    .map(([k, v]) => `wrk.headers[${JSON.stringify(k)}] = ${JSON.stringify(v)}`)
    .join("\n");
  return `${headers}
local paths = { ${paths} }
local i = 0
request = function()
  i = i % #paths + 1
  return wrk.format(nil, paths[i])
end
done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format("WRK_RESULT %d %d %d %d %d %d %d %d %d %d\\n", summary.requests, summary.bytes,
    summary.duration, e.connect, e.read, e.write, e.status, e.timeout,
    latency:percentile(50), latency:percentile(99)))
end
`;
}

/** One wrk run of `seconds` with one thread (the other core is the server's). */
export async function runWrk(run: WrkRun): Promise<WrkResult> {
  const script = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "photodrop-wrk-")), "rotate.lua");
  fs.writeFileSync(script, luaScript(run));
  const args = ["-t1", `-c${run.connections}`, `-d${run.seconds}s`, "--timeout", "10s", "-s", script, run.base];
  // wrk's CPU time is read from its parent shell's children times (fields cutime, cstime) once it has exited.
  const child = spawn("sh", ["-c", 'wrk "$@"; echo "WRK_CPU $(cat /proc/$$/stat)"', "wrk", ...args], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  let out = "";
  child.stdout.on("data", (chunk: Buffer) => (out += chunk.toString()));
  const watched = Object.entries(run.watch ?? {}).filter((e): e is [string, number] => e[1] !== undefined);
  const before = watched.map(([, pid]) => cpuSecondsOf(pid));
  const started = performance.now();
  const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
  const elapsed = (performance.now() - started) / 1000;
  const cpu: Record<string, number> = {};
  watched.forEach(([name, pid], i) => (cpu[name] = Math.round(((cpuSecondsOf(pid) - before[i]) / elapsed) * 100)));
  const shell = /WRK_CPU .*?\) (.+)/.exec(out)?.[1].split(" ") ?? [];
  cpu.wrk = Math.round(((Number(shell[13]) + Number(shell[14])) / 100 / elapsed) * 100);
  fs.rmSync(path.dirname(script), { recursive: true, force: true });
  const line = /WRK_RESULT (.+)/.exec(out);
  if (code !== 0 || !line) throw new Error(`wrk failed (${code}):\n${out}`);
  const [requests, bytes, durationUs, connect, read, write, status, timeout, p50, p99] = line[1].split(" ").map(Number);
  const seconds = durationUs / 1e6;
  return {
    requests,
    bytes,
    seconds,
    errors: connect + read + write + timeout + status,
    statusErrors: status,
    p50ms: p50 / 1000,
    p99ms: p99 / 1000,
    rps: requests / seconds,
    mbps: bytes / 1e6 / seconds,
    cpu,
  };
}
