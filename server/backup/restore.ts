import fs from "node:fs";
import path from "node:path";
import type { Config } from "../config";
import { runtimeModules } from "../runtime-modules";
import { BackupError, diskFullMessage, refuseObjectStorage } from "./backup-error";
import { isDiskFull } from "../storage/disk-full";
import { databaseBackupFor } from "./database-backup";
import { readManifest, verifyBackup } from "./manifest";

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
  refuseObjectStorage(config);
  const manifest = await readManifest(folder);
  const known = new Set(runtimeModules("migrations", /\.ts$/).map((m) => m.name));
  if (manifest.schemaVersion && !known.has(manifest.schemaVersion)) {
    throw new BackupError(
      `The backup comes from a newer Photodrop (schema ${manifest.schemaVersion}); update Photodrop first`,
    );
  }
  const database = databaseBackupFor(config.databaseUrl);
  database.assertTargetEmpty();
  const targets = { uploads: config.uploadsDir, published: config.publishedDir };
  for (const [name, dir] of Object.entries(targets))
    assertFolderEmpty(dir, name === "uploads" ? "UPLOADS_DIR" : "PUBLISHED_DIR");
  await verifyBackup(folder, manifest);

  // The files first and the database last: a restore cut short (a full disk) is undone whole.
  try {
    for (const file of manifest.files) {
      const [root, ...rest] = file.path.split("/");
      const target = path.join(targets[root as keyof typeof targets], ...rest);
      fs.mkdirSync(path.dirname(target), { recursive: true });
      // A copy, not a link: the restored files must not change if the backup folder is touched.
      await fs.promises.copyFile(path.join(folder, file.path), target, fs.constants.COPYFILE_FICLONE);
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
