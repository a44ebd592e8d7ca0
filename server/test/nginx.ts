import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { onFreePorts, portsListenedBy } from "./free-port";

export const NGINX = "/usr/sbin/nginx";

export interface RunningNginx {
  /** The master process; with one worker, `workerPid()` is the one doing the work. */
  pid: number;
  workerPid(): number | undefined;
  /** Everything it wrote to its error log. */
  errors(): string;
  stop(): Promise<void>;
}

/**
 * A real nginx (Debian's nginx-light) run from `dir`: in the foreground, one worker, every
 * temporary and log file inside `dir`, its worker as root's user (nginx's default `nobody` could
 * not read a test's folders) or, when run as root, as `opts.user` (user and group of that name). `servers` is the `server { ... }` blocks of the site; they are put inside an
 * `http` block with Debian's MIME types and `sendfile on`. Resolves once this nginx listens on every
 * port in `ports` (its own sockets: not whoever else may answer there); throws with its errors
 * (which say "Address already in use" for a port taken) once it has given up.
 */
export async function startNginx(
  dir: string,
  servers: string,
  ports: number[],
  opts: { user?: string } = {},
): Promise<RunningNginx> {
  fs.mkdirSync(dir, { recursive: true });
  const temp = (name: string) => `${name}_temp_path ${path.join(dir, name)};`;
  const conf = [
    "daemon off;",
    "master_process on;",
    process.getuid?.() === 0 ? `user ${opts.user ?? "root"} ${opts.user ?? "root"};` : "",
    "worker_processes 1;",
    `pid ${path.join(dir, "nginx.pid")};`,
    `error_log ${path.join(dir, "error.log")} warn;`,
    "events { worker_connections 1024; }",
    "http {",
    "  include /etc/nginx/mime.types;",
    "  default_type application/octet-stream;",
    "  access_log off;",
    "  sendfile on;",
    ...["client_body", "proxy", "fastcgi", "uwsgi", "scgi"].map((name) => `  ${temp(name)}`),
    servers,
    "}",
  ].join("\n");
  const confFile = path.join(dir, "nginx.conf");
  fs.writeFileSync(confFile, conf);
  // A start before this one (on a port taken) left its errors there.
  fs.rmSync(path.join(dir, "error.log"), { force: true });
  const child: ChildProcess = spawn(NGINX, ["-p", dir, "-c", confFile], { stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  child.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const errors = () =>
    stderr + (fs.existsSync(path.join(dir, "error.log")) ? fs.readFileSync(path.join(dir, "error.log"), "utf8") : "");
  // nginx tries a port taken for 2.5 s before it gives up.
  const deadline = Date.now() + 15_000;
  for (;;) {
    const listening = portsListenedBy(child.pid!);
    if (ports.every((port) => listening.has(port))) break;
    if (child.exitCode !== null || child.signalCode !== null || Date.now() > deadline) {
      child.kill("SIGKILL");
      await exited;
      throw new Error(`nginx did not start:\n${errors()}\n${conf}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const pid = child.pid!;
  return {
    pid,
    workerPid() {
      const children = fs.readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").trim().split(/\s+/);
      return children[0] ? Number(children[0]) : undefined;
    },
    errors,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
      await exited;
    },
  };
}

/** startNginx on `count` free ports, `servers` written for them; ports another process took first are picked again. */
export function startNginxOnFreePorts(
  dir: string,
  count: number,
  servers: (ports: number[]) => string,
  opts: { user?: string; pick?: () => Promise<number> } = {},
): Promise<{ nginx: RunningNginx; ports: number[] }> {
  return onFreePorts(
    count,
    async (ports) => ({ nginx: await startNginx(dir, servers(ports), ports, opts), ports }),
    opts.pick,
  );
}
