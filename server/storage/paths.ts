import fs from "node:fs/promises";
import path from "node:path";
import type { Config } from "../config";

/** Absolute path of a stored attachment or thumbnail from its storage key (`<projectId>/<generated>.<ext>`). */
export function uploadPath(config: Config, storageKey: string): string {
  const full = path.resolve(config.uploadsDir, storageKey);
  if (!full.startsWith(config.uploadsDir + path.sep)) throw new Error(`storage key escapes UPLOADS_DIR: ${storageKey}`);
  return full;
}

/** Absolute path of a published ZIP from the stored `published/<name>.zip`. */
export function publishedZipFile(config: Config, publishedZipPath: string): string {
  return path.join(config.publishedDir, path.basename(publishedZipPath));
}

/** Removes files, ignoring ones already gone; used after a commit, when a missing file is no error. */
export async function removeQuietly(...files: string[]): Promise<void> {
  await Promise.all(files.map((f) => fs.rm(f, { force: true, recursive: true })));
}

/** Where uploads are received before they are checked: inside UPLOADS_DIR so moving a file into place is an atomic rename. */
export function uploadsTempRoot(config: Config): string {
  return path.join(config.uploadsDir, ".tmp");
}
