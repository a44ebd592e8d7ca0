import { execFileSync, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { onFreePorts } from "./free-port";

/**
 * A throwaway PostgreSQL cluster from Debian's `postgresql` binaries: initdb and pg_ctl in a temp
 * folder on a free port, trust authentication on 127.0.0.1 only, the unix socket inside the
 * folder. PostgreSQL refuses to run as root, so as root every binary runs as the `postgres`
 * system user, which then owns the folder.
 */
export interface PgCluster {
  /** Connection URL of the cluster's `postgres` database (superuser `postgres`, no password). */
  url: string;
  /** The cluster's data folder (its postmaster.pid names the server process). */
  dataDir: string;
  stop(): void;
}

export function findPgBinDir(): string {
  const roots = ["/usr/lib/postgresql"].filter((r) => fs.existsSync(r));
  const versions = roots.flatMap((root) =>
    fs
      .readdirSync(root)
      .filter((v) => fs.existsSync(path.join(root, v, "bin", "initdb")))
      .map((v) => path.join(root, v, "bin")),
  );
  versions.sort((a, b) => parseFloat(path.basename(path.dirname(b))) - parseFloat(path.basename(path.dirname(a))));
  if (versions[0]) return versions[0];
  const onPath = spawnSync("sh", ["-c", "command -v initdb"], { encoding: "utf8" }).stdout.trim();
  if (onPath) return path.dirname(fs.realpathSync(onPath));
  throw new Error("PostgreSQL's initdb was not found (apt-get install -y postgresql)");
}

/** `pick` is for tests (see onFreePorts). */
export async function startPgCluster(pick?: () => Promise<number>): Promise<PgCluster> {
  const bin = findPgBinDir();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "photodrop-pg-"));
  const data = path.join(dir, "data");
  const asRoot = process.getuid?.() === 0;
  if (asRoot) {
    const uid = Number(execFileSync("id", ["-u", "postgres"], { encoding: "utf8" }).trim());
    const gid = Number(execFileSync("id", ["-g", "postgres"], { encoding: "utf8" }).trim());
    fs.chownSync(dir, uid, gid);
  }
  const run = (tool: string, args: string[]) => {
    const [cmd, argv] = asRoot
      ? ["runuser", ["-u", "postgres", "--", path.join(bin, tool), ...args]]
      : [path.join(bin, tool), args];
    const r = spawnSync(cmd, argv, { encoding: "utf8", cwd: dir });
    if (r.status !== 0) throw new Error(`${tool} failed (${r.status}): ${r.stderr || r.stdout}`);
  };
  run("initdb", ["-D", data, "-U", "postgres", "--auth=trust", "-E", "UTF8", "--locale=C", "--no-sync"]);
  const log = path.join(dir, "server.log");
  // pg_ctl -w waits on this cluster's own postmaster.pid, whoever else answers on the port.
  const port = await onFreePorts(
    1,
    async ([port]) => {
      // A test cluster: durability off, room for every parallel test file's pool.
      const options = [
        `-p ${port}`,
        `-k ${dir}`,
        "-c listen_addresses=127.0.0.1",
        "-c fsync=off",
        "-c synchronous_commit=off",
        "-c full_page_writes=off",
        "-c max_connections=400",
        "-c shared_buffers=64MB",
        "-c timezone=UTC",
      ].join(" ");
      const logged = fs.existsSync(log) ? fs.statSync(log).size : 0;
      try {
        run("pg_ctl", ["start", "-D", data, "-w", "-t", "60", "-l", log, "-o", options]);
      } catch (error) {
        // Its log says why ("Address already in use": the port was taken meanwhile).
        throw new Error(
          `${(error as Error).message}\n${fs.readFileSync(log).subarray(logged).toString().slice(-2000)}`,
          { cause: error },
        );
      }
      return port;
    },
    pick,
  );
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    dataDir: data,
    stop() {
      try {
        run("pg_ctl", ["stop", "-D", data, "-m", "immediate", "-w"]);
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
