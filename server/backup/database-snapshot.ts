import path from "node:path";
import { ZIP_LEFT_OUT } from "./backup-folder";
import * as repo from "./backup.repository";
import type { databaseBackupFor } from "./database-backup";

/**
 * The database copied into the backup folder at one moment, and what that copy says: the files it
 * names (`uploads/…`, and `published/…` with the ZIPs) and its schema version. Without the ZIPs,
 * the copy itself forgets them, so it never names a file the backup leaves out.
 */
export async function snapshotDatabase(
  folder: string,
  database: ReturnType<typeof databaseBackupFor>,
  withZips: boolean,
): Promise<{ listed: string[]; schemaVersion: string }> {
  const databaseFile = path.join(folder, database.fileName);
  await database.snapshot(databaseFile);
  const copy = database.openCopy(databaseFile);
  try {
    const listed = await repo.filesListedBy(copy, withZips);
    const schemaVersion = await repo.schemaVersion(copy);
    if (!withZips) await repo.forgetZips(copy, ZIP_LEFT_OUT);
    return { listed, schemaVersion };
  } finally {
    await copy.destroy();
  }
}
