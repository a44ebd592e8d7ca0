import crypto from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import type { AppContext } from "../context";
import { pingDatabase } from "./readiness.repository";

export type CheckResult = "ok" | string;

export interface Readiness {
  ready: boolean;
  checks: { database: CheckResult; uploads: CheckResult; published: CheckResult };
}

const DATABASE_TIMEOUT_MS = 2000;

/**
 * What /readyz reports: the database answers a query, and a file can really be created in each
 * data folder (an access() check says yes to root even on a read-only mount). Failures name
 * the error code only, never a path, since the endpoint needs no sign-in.
 */
export async function checkReadiness(ctx: AppContext): Promise<Readiness> {
  const [database, uploads, published] = await Promise.all([
    checkDatabase(ctx),
    checkWritable(ctx.config.uploadsDir),
    checkWritable(ctx.config.publishedDir),
  ]);
  return { ready: [database, uploads, published].every((c) => c === "ok"), checks: { database, uploads, published } };
}

async function checkDatabase(ctx: AppContext): Promise<CheckResult> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<string>((resolve) => {
    timer = setTimeout(() => resolve(`no answer within ${DATABASE_TIMEOUT_MS} ms`), DATABASE_TIMEOUT_MS);
  });
  const query = pingDatabase(ctx.db).then(
    () => "ok",
    (err: NodeJS.ErrnoException) => `query failed (${err.code ?? "error"})`,
  );
  try {
    return await Promise.race([query, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

async function checkWritable(dir: string): Promise<CheckResult> {
  const probe = path.join(dir, `.ready-${process.pid}-${crypto.randomBytes(4).toString("hex")}`);
  try {
    await fs.writeFile(probe, "", { flag: "wx" });
  } catch (err) {
    return `not writable (${(err as NodeJS.ErrnoException).code ?? "error"})`;
  }
  await fs.rm(probe, { force: true });
  return "ok";
}
