/**
 * The database a bench runs on: a sqlite file in its folder, or with `BENCH_DB=pg` a fresh
 * database in a throwaway PostgreSQL cluster started from Debian's binaries (as the tests do).
 */
import path from "node:path";
import pg from "pg";
import { startPgCluster } from "../server/test/pg-cluster";

export const benchOnPg = () => process.env.BENCH_DB === "pg";

export async function benchDatabase(dir: string): Promise<{ url: string; label: string; stop(): Promise<void> }> {
  if (!benchOnPg()) return { url: path.join(dir, "db.sqlite3"), label: "sqlite", stop: async () => {} };
  const cluster = await startPgCluster();
  const admin = new pg.Client(cluster.url);
  await admin.connect();
  await admin.query("CREATE DATABASE photodrop_bench");
  await admin.end();
  const url = new URL(cluster.url);
  url.pathname = "/photodrop_bench";
  return { url: url.toString(), label: "PostgreSQL", stop: async () => cluster.stop() };
}
