import fs from "node:fs";
import path from "node:path";
import type { Config } from "../config";
import { runtimeModules } from "../runtime-modules";
import { BackupError, diskFullMessage } from "./backup-error";
import { isDiskFull } from "../storage/disk-full";
import { dataFileModes, makeFolderSync, settleFile } from "../storage/file-modes";
import { openStores } from "../storage/stores";
import { databaseBackupFor, type DatabaseBackup } from "./database-backup";
import { fileProblems, readManifest, refuseDamaged, verifyBackup, type Manifest } from "./manifest";
import { objectProblems } from "./object-backup";

export interface RestoreSummary {
  files: number;
  bytes: number;
}

/**
 * Restores a backup into an empty place: refuses a database or data folder that already holds
 * something, checks every file against the manifest before writing anything, then copies the
 * database and the files in. The next start runs any newer migrations.
 */
export async function restoreBackup(config: Config, folder: string): Promise<RestoreSummary> {
  const manifest = await readManifest(folder);
  const known = new Set(runtimeModules("migrations", /\.ts$/).map((m) => m.name));
  if (manifest.schemaVersion && !known.has(manifest.schemaVersion)) {
    throw new BackupError(
      `The backup comes from a newer Photodrop (schema ${manifest.schemaVersion}); update Photodrop first`,
    );
  }
  refuseOtherStorage(config, manifest);
  const database = databaseBackupFor(config.databaseUrl);
  database.assertTargetEmpty();
  if (manifest.objectStorage) return restoreObjectBackup(config, folder, manifest, database);
  const targets = { uploads: config.uploadsDir, published: config.publishedDir };
  for (const [name, dir] of Object.entries(targets))
    assertFolderEmpty(dir, name === "uploads" ? "UPLOADS_DIR" : "PUBLISHED_DIR");
  await verifyBackup(folder, manifest);
  const modes = dataFileModes(config);

  // The files first and the database last: a restore cut short (a full disk) is undone whole.
  try {
    for (const file of manifest.files) {
      const [root, ...rest] = file.path.split("/");
      const target = path.join(targets[root as keyof typeof targets], ...rest);
      makeFolderSync(path.dirname(target), modes);
      // A copy, not a link: the restored files must not change if the backup folder is touched.
      await fs.promises.copyFile(path.join(folder, file.path), target, fs.constants.COPYFILE_FICLONE);
      await settleFile(target, modes);
    }
    await database.restore(path.join(folder, manifest.database.path));
  } catch (err) {
    // They were empty before: whatever is in them now is this restore's.
    for (const dir of Object.values(targets))
      for (const entry of restorable(dir)) fs.rmSync(path.join(dir, entry), { recursive: true, force: true });
    if (isDiskFull(err))
      throw new BackupError(diskFullMessage("the data folders or the database", "nothing was restored"));
    throw err;
  }
  return { files: manifest.files.length, bytes: manifest.files.reduce((sum, f) => sum + f.size, 0) };
}

/** What a data folder holds besides the repository's placeholder and an empty receive area. */
function restorable(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .filter(
      (entry) => entry !== ".gitkeep" && !(entry === ".tmp" && fs.readdirSync(path.join(dir, entry)).length === 0),
    );
}

function assertFolderEmpty(dir: string, name: string) {
  if (restorable(dir).length > 0) throw new BackupError(`${name} ${dir} is not empty; restore only into empty folders`);
}

/** A backup of files restores with the folders, one of objects with a bucket: never one into the other. */
function refuseOtherStorage(config: Config, manifest: Manifest) {
  const inBucket = config.storage.kind !== "disk";
  if (manifest.objectStorage && !inBucket)
    throw new BackupError(
      `The backup's photos are objects in ${manifest.objectStorage.url}: set STORAGE_URL and the S3_* settings to restore it`,
    );
  if (!manifest.objectStorage && inBucket)
    throw new BackupError(
      "The backup holds its photos as files: restore it with STORAGE_URL unset, then copy them with npm run storage:migrate -- --to s3",
    );
}

/**
 * In object storage the backup's objects must still be in the bucket, each with the manifest's
 * size and SHA-256, before the database is put in place; nothing else is written.
 */
async function restoreObjectBackup(
  config: Config,
  folder: string,
  manifest: Manifest,
  database: DatabaseBackup,
): Promise<RestoreSummary> {
  refuseDamaged(await fileProblems(folder, [manifest.database]));
  const store = (await openStores(config)).uploads;
  refuseDamaged(
    await objectProblems(store, manifest.files),
    "Objects the backup lists are not in the bucket as they were (bring them back from the bucket's versions or replica); nothing was restored",
  );
  await database.restore(path.join(folder, manifest.database.path));
  return { files: manifest.files.length, bytes: manifest.files.reduce((sum, f) => sum + f.size, 0) };
}
