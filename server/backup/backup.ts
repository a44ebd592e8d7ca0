import fs from "node:fs";
import path from "node:path";
import type { Config } from "../config";
import { PUBLISHED_ZIP_NAME, webSizeZipName } from "../storage/paths";
import { BackupError, diskFullMessage } from "./backup-error";
import { emptyFolder, prepareEmptyFolder } from "./backup-folder";
import { isDiskFull } from "../storage/disk-full";
import { makeFolderSync, PRIVATE_MODES } from "../storage/file-modes";
import { databaseBackupFor } from "./database-backup";
import { snapshotDatabase } from "./database-snapshot";
import { createObjectBackup } from "./object-backup";
import { describeFile, writeManifest, type Manifest } from "./manifest";

export interface BackupOptions {
  /** Published ZIPs too (they can be rebuilt by publishing again, so they are left out by default). */
  withZips?: boolean;
}

export interface BackupSummary {
  files: number;
  bytes: number;
  /** How the files were taken: hard links (same file system) or copies; in object storage only listed (their objects stay). */
  method: "hard links" | "copies" | "none" | "listed";
}

const ATTEMPTS = 3;

/**
 * Writes a backup of a running Photodrop into an empty or new folder: the database as one
 * consistent moment, exactly the files that database lists, and a manifest with each file's size
 * and SHA-256. Files are taken before the database moment, so a file deleted after it is still
 * in hand (a hard link keeps it, files are never rewritten in place); the ones placed afterwards
 * are taken after it; whatever the copy does not list is dropped again.
 */
export async function createBackup(
  config: Config,
  folder: string,
  options: BackupOptions = {},
): Promise<BackupSummary> {
  if (config.storage.kind !== "disk")
    return { ...(await createObjectBackup(config, folder, options.withZips ?? false)), method: "listed" };
  prepareEmptyFolder(folder);
  const database = databaseBackupFor(config.databaseUrl);
  for (let attempt = 1; ; attempt++) {
    try {
      return await attemptBackup(config, folder, options, database);
    } catch (err) {
      emptyFolder(folder);
      if (isDiskFull(err)) throw new BackupError(diskFullMessage(folder, "nothing of the backup was kept"));
      // Only the rare file deleted between being placed and being taken is worth a fresh try.
      if (!(err instanceof FileVanished) || attempt === ATTEMPTS) throw err;
    }
  }
}

class FileVanished extends BackupError {}

async function attemptBackup(
  config: Config,
  folder: string,
  options: BackupOptions,
  database: ReturnType<typeof databaseBackupFor>,
) {
  const taker = new FileTaker();
  const roots = { uploads: config.uploadsDir, published: config.publishedDir };
  for (const relative of liveFiles(config.uploadsDir))
    taker.take(path.join(roots.uploads, relative), path.join(folder, "uploads", relative));
  if (options.withZips) {
    for (const name of fs.readdirSync(config.publishedDir).filter((n) => PUBLISHED_ZIP_NAME.test(n))) {
      taker.take(path.join(roots.published, name), path.join(folder, "published", name));
    }
  }

  const { listed, schemaVersion } = await snapshotDatabase(folder, database, options.withZips ?? false);
  if (options.withZips) listed.push(...webSizeZipsTaken(folder, listed));

  const wanted = new Set(listed);
  for (const relative of listed) {
    const target = path.join(folder, relative);
    if (fs.existsSync(target)) continue;
    const [root, ...rest] = relative.split("/");
    const source = path.join(roots[root as keyof typeof roots], ...rest);
    if (!taker.take(source, target)) throw new FileVanished(`${relative} disappeared while the backup was taken`);
  }
  for (const root of ["uploads", "published"]) {
    for (const relative of liveFiles(path.join(folder, root))) {
      if (!wanted.has(`${root}/${relative}`)) fs.rmSync(path.join(folder, root, relative));
    }
  }

  const files = [];
  for (const relative of listed.sort()) files.push(await describeFile(folder, relative));
  const manifest: Manifest = {
    format: "photodrop-backup/1",
    createdAt: new Date().toISOString(),
    schemaVersion,
    withZips: options.withZips ?? false,
    database: { ...(await describeFile(folder, database.fileName)), kind: "sqlite", path: "database.sqlite3" },
    files,
  };
  await writeManifest(folder, manifest);
  return { files: files.length, bytes: files.reduce((sum, f) => sum + f.size, 0), method: taker.method() };
}

/** Files under a data folder, relative to it; the receive area and dot-files (readiness probes) are not data. */
/**
 * The web-size ZIPs taken beside the listed ZIPs: the database names only a project's ZIP, and
 * whether its web-size ZIP was built is the folder's to say.
 */
function webSizeZipsTaken(folder: string, listed: string[]): string[] {
  return listed
    .filter((relative) => relative.startsWith("published/"))
    .map((relative) => `published/${webSizeZipName(path.basename(relative))}`)
    .filter((relative) => fs.existsSync(path.join(folder, relative)));
}

function liveFiles(dir: string, prefix = ""): string[] {
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(path.join(dir, prefix), { withFileTypes: true });
  } catch (err) {
    // A folder that went while we looked (an upload's receive folder, a deleted project's).
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw err;
  }
  // Dot folders (.tmp: uploads still being received) are never part of a backup.
  return entries
    .filter((e) => !e.name.startsWith("."))
    .flatMap((e) => {
      const relative = prefix ? `${prefix}/${e.name}` : e.name;
      if (e.isDirectory()) return liveFiles(dir, relative);
      return e.isFile() ? [relative] : [];
    });
}

/** Hard links while the backup folder shares the file system, copies otherwise. */
class FileTaker {
  private links = 0;
  private copies = 0;

  /** Takes `source` as `target`; false when the source is gone. */
  take(source: string, target: string): boolean {
    makeFolderSync(path.dirname(target));
    try {
      fs.linkSync(source, target);
      this.links++;
      return true;
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === "ENOENT") return false;
      if (code !== "EXDEV" && code !== "EPERM") throw err;
    }
    try {
      // A copy keeps its source's mode, which an older install left 0644.
      fs.copyFileSync(source, target);
      fs.chmodSync(target, PRIVATE_MODES.file);
      this.copies++;
      return true;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === "ENOENT") return false;
      throw err;
    }
  }

  method(): BackupSummary["method"] {
    if (this.copies > 0) return "copies";
    return this.links > 0 ? "hard links" : "none";
  }
}
