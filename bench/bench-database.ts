/**
 * The database a bench runs on: a sqlite file in its folder, or with `BENCH_DB=pg` a fresh
 * database in a throwaway PostgreSQL cluster started from Debian's binaries (as the tests do).
 */
import fs from "node:fs";
import path from "node:path";
import pg from "pg";
import { startPgCluster } from "../server/test/pg-cluster";

export const benchOnPg = () => process.env.BENCH_DB === "pg";

export interface BenchDatabase {
  url: string;
  label: string;
  /** The database server's processes now (PostgreSQL's postmaster and its children; none for sqlite). */
  serverPids(): number[];
  stop(): Promise<void>;
}

/** A process and its children, from /proc. */
function processTree(root: number): number[] {
  const children = fs
    .readdirSync("/proc")
    .filter((name) => /^\d+$/.test(name))
    .flatMap((name) => {
      try {
        const ppid = Number(fs.readFileSync(`/proc/${name}/stat`, "utf8").split(") ")[1].split(" ")[1]);
        return ppid === root ? [Number(name)] : [];
      } catch {
        return []; // it exited meanwhile
      }
    });
  return [root, ...children];
}

/** A bench server's data: this database, photo and ZIP folders under `work`, no demo data. */
export function benchServerEnv(work: string, databaseUrl: string) {
  return {
    DATABASE_URL: databaseUrl,
    UPLOADS_DIR: path.join(work, "uploads"),
    PUBLISHED_DIR: path.join(work, "published"),
    SEED_DEMO: "0",
  };
}

export async function benchDatabase(dir: string): Promise<BenchDatabase> {
  if (!benchOnPg())
    return { url: path.join(dir, "db.sqlite3"), label: "sqlite", serverPids: () => [], stop: async () => {} };
  const cluster = await startPgCluster();
  const admin = new pg.Client(cluster.url);
  await admin.connect();
  await admin.query("CREATE DATABASE photodrop_bench");
  await admin.end();
  const url = new URL(cluster.url);
  url.pathname = "/photodrop_bench";
  const postmaster = Number(fs.readFileSync(path.join(cluster.dataDir, "postmaster.pid"), "utf8").split("\n")[0]);
  return {
    url: url.toString(),
    label: "PostgreSQL",
    serverPids: () => processTree(postmaster),
    stop: async () => cluster.stop(),
  };
}
