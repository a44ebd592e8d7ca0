import crypto from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import type { AppContext } from "../context";
import { diskSpace, type DiskSpace } from "../storage/disk-space";
import { makeFolder } from "../storage/file-modes";
import { uploadsTempRoot } from "../storage/paths";
import { checkBucket } from "./bucket-readiness";
import { pingDatabase } from "./readiness.repository";

export type CheckResult = "ok" | string;

/**
 * What /readyz reports. On disk: the database, and each data folder with its disk's space. In
 * object storage (STORAGE_URL): the database, the bucket, and the local folder uploads are
 * received and renditions made in (`UPLOADS_DIR/.tmp`) with its disk's space: that disk holds no
 * photo, so it is not reported as the photos' disk.
 */
export type Readiness =
  | {
      ready: boolean;
      checks: { database: CheckResult; uploads: CheckResult; published: CheckResult };
      /** Free and total bytes of the file system holding each data folder (null when it cannot be read). */
      disk: { uploads: DiskSpace | null; published: DiskSpace | null };
    }
  | {
      ready: boolean;
      checks: { database: CheckResult; storage: CheckResult; temp: CheckResult };
      /** Free and total bytes of the file system holding the temp folder (null when it cannot be read). */
      disk: { temp: DiskSpace | null };
    };

const DATABASE_TIMEOUT_MS = 2000;
const BUCKET_TIMEOUT_MS = 2000;

/**
 * The database answers a query, the bucket a HeadBucket, and a file can really be created in each
 * local folder (an access() check says yes to root even on a read-only mount) on a disk with at
 * least MIN_FREE_DISK_MB free (an empty file still fits on a full one). Failures name the error
 * code only, never a path, since the endpoint needs no sign-in.
 */
export async function checkReadiness(ctx: AppContext): Promise<Readiness> {
  const { uploadsDir, publishedDir, minFreeDiskBytes, storage } = ctx.config;
  if (storage.kind === "s3") {
    const tempDir = uploadsTempRoot(ctx.config);
    // Made on first use by uploads and renders; a failure to make it shows in its check.
    await makeFolder(tempDir).catch(() => undefined);
    const [database, bucket, temp] = await Promise.all([
      checkDatabase(ctx),
      checkBucket(storage, BUCKET_TIMEOUT_MS),
      checkFolder(tempDir, minFreeDiskBytes),
    ]);
    return {
      ready: [database, bucket, temp.check].every((c) => c === "ok"),
      checks: { database, storage: bucket, temp: temp.check },
      disk: { temp: temp.space },
    };
  }
  const [database, uploads, published] = await Promise.all([
    checkDatabase(ctx),
    checkFolder(uploadsDir, minFreeDiskBytes),
    checkFolder(publishedDir, minFreeDiskBytes),
  ]);
  return {
    ready: [database, uploads.check, published.check].every((c) => c === "ok"),
    checks: { database, uploads: uploads.check, published: published.check },
    disk: { uploads: uploads.space, published: published.space },
  };
}

const megabytes = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);

async function checkFolder(dir: string, minFreeBytes: number) {
  const [writable, space] = await Promise.all([checkWritable(dir), diskSpace(dir).catch(() => null)]);
  const low = writable === "ok" && space !== null && space.freeBytes < minFreeBytes;
  return { check: low ? `disk almost full (${megabytes(space.freeBytes)} MB free)` : writable, space };
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
