import crypto from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import type { Logger } from "pino";
import type { Config } from "../config";

/** Absolute path of a stored attachment or thumbnail from its storage key (`<projectId>/<generated>.<ext>`). */
export function uploadPath(config: Config, storageKey: string): string {
  const full = path.resolve(config.uploadsDir, storageKey);
  if (!full.startsWith(config.uploadsDir + path.sep)) throw new Error(`storage key escapes UPLOADS_DIR: ${storageKey}`);
  return full;
}

/** A published ZIP's name: 128 random bits, URL-safe. The only names served from or swept out of PUBLISHED_DIR. */
export const PUBLISHED_ZIP_NAME = /^[A-Za-z0-9_-]{22,}\.zip$/;

export function newPublishedZipName(): string {
  return `${crypto.randomBytes(16).toString("base64url")}.zip`;
}

/** Absolute path of a published ZIP from the stored `published/<name>.zip` (or the bare name). */
export function publishedZipFile(config: Config, publishedZipPath: string): string {
  return path.join(config.publishedDir, path.basename(publishedZipPath));
}

/**
 * The web-size ZIP built beside a published ZIP: `<name>-web.zip` in the same folder. Its name
 * follows the ZIP's, so whatever removes, renames or sweeps the one reaches the other; it is
 * never a delivery link's own name (`<token>-web` names no project).
 */
export function webSizeZipFile(config: Config, publishedZipPath: string): string {
  return publishedZipFile(config, webSizeZipName(path.basename(publishedZipPath)));
}

export const webSizeZipName = (zipName: string) => zipName.replace(/\.zip$/, "-web.zip");

/** Removes files, ignoring ones already gone; used after a commit, when a missing file is no error. */
export async function removeQuietly(...files: string[]): Promise<void> {
  await Promise.all(files.map((f) => fs.rm(f, { force: true, recursive: true })));
}

/**
 * Removes files or folders where a failure must not escalate (cleanup after the answer, or of a
 * request that is gone): it is logged and the caller goes on. Never rejects.
 */
export async function removeOrLog(logger: Logger, what: string, ...files: string[]): Promise<void> {
  await Promise.all(
    files.map((file) =>
      // Retried: a folder whose files are still being opened or closed is briefly not empty (ENOTEMPTY).
      fs
        .rm(file, { force: true, recursive: true, maxRetries: 5, retryDelay: 50 })
        .catch((err: unknown) => logger.warn({ err, file }, `could not remove ${what}`)),
    ),
  );
}

/** Where uploads are received before they are checked: inside UPLOADS_DIR so moving a file into place is an atomic rename. */
export function uploadsTempRoot(config: Config): string {
  return path.join(config.uploadsDir, ".tmp");
}

/**
 * Removes receive folders left in UPLOADS_DIR/.tmp by a process that stopped mid-upload. Only
 * entries untouched for `olderThanMs` go, so uploads in flight in another process are safe.
 */
export async function removeStaleTempFiles(config: Config, olderThanMs: number, now = Date.now()): Promise<number> {
  const root = uploadsTempRoot(config);
  const entries = await fs.readdir(root).catch(() => [] as string[]);
  let removed = 0;
  for (const name of entries) {
    const entry = path.join(root, name);
    const stat = await fs.stat(entry).catch(() => undefined);
    // One that cannot go now (still being written to) is tried again on the next sweep.
    if (
      stat &&
      now - stat.mtimeMs > olderThanMs &&
      (await removeQuietly(entry).then(
        () => true,
        () => false,
      ))
    )
      removed++;
  }
  return removed;
}

/**
 * Sweeps UPLOADS_DIR/.tmp every `everyMs` for receive folders untouched for `olderThanMs`, as a net
 * under a cleanup that failed. The timer keeps no process alive; call the returned function to stop it.
 */
export function sweepStaleTempFiles(
  config: Config,
  logger: Logger,
  everyMs = 10 * 60_000,
  olderThanMs = 60 * 60_000,
): () => void {
  const timer = setInterval(() => {
    removeStaleTempFiles(config, olderThanMs).then(
      (removed) => removed > 0 && logger.info({ removed }, "removed stale upload temp folders"),
      (err: unknown) => logger.warn({ err }, "could not sweep upload temp folders"),
    );
  }, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
