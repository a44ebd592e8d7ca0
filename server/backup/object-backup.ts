import type { Config } from "../config";
import { isDiskFull } from "../storage/disk-full";
import { checksumOf } from "../storage/object-checksum";
import type { ObjectStore } from "../storage/object-store";
import { openStores } from "../storage/stores";
import { BackupError, diskFullMessage } from "./backup-error";
import { emptyFolder, prepareEmptyFolder } from "./backup-folder";
import { databaseBackupFor } from "./database-backup";
import { snapshotDatabase } from "./database-snapshot";
import { describeFile, writeManifest, type Manifest, type ManifestEntry } from "./manifest";

const ATTEMPTS = 3;
/** Objects read at once to learn a checksum not recorded with them. */
const READS_AT_ONCE = 4;

class ObjectVanished extends BackupError {}

/** `s3://bucket/prefix/`: where a backup's objects were, for the person restoring it. */
export function objectStorageUrl(config: Config): string {
  if (config.storage.kind !== "s3") throw new Error("not in object storage");
  return `s3://${config.storage.bucket}/${config.storage.prefix}`;
}

/**
 * The backup in object storage: the database as on disk, and a manifest of every object that
 * database names with its size and SHA-256, the objects themselves left in the bucket (its
 * provider's versioning or replication keeps their bytes). A photo deleted between the database
 * moment and its listing makes the backup start again, as on disk.
 */
export async function createObjectBackup(
  config: Config,
  folder: string,
  withZips: boolean,
): Promise<{ files: number; bytes: number }> {
  if (withZips)
    throw new BackupError(
      "--with-zips: a backup in object storage does not carry the published ZIPs; back up without it (projects come back ready to publish again)",
    );
  prepareEmptyFolder(folder);
  const store = (await openStores(config)).uploads;
  for (let attempt = 1; ; attempt++) {
    try {
      return await attemptBackup(config, folder, store);
    } catch (err) {
      emptyFolder(folder);
      if (isDiskFull(err)) throw new BackupError(diskFullMessage(folder, "nothing of the backup was kept"));
      if (!(err instanceof ObjectVanished) || attempt === ATTEMPTS) throw err;
    }
  }
}

async function attemptBackup(config: Config, folder: string, store: ObjectStore) {
  const database = databaseBackupFor(config.databaseUrl);
  const { listed, schemaVersion } = await snapshotDatabase(folder, database, false);

  const files = await describeObjects(store, listed.sort());
  const manifest: Manifest = {
    format: "photodrop-backup/1",
    createdAt: new Date().toISOString(),
    schemaVersion,
    withZips: false,
    objectStorage: { url: objectStorageUrl(config) },
    database: { ...(await describeFile(folder, database.fileName)), kind: "sqlite", path: "database.sqlite3" },
    files,
  };
  await writeManifest(folder, manifest);
  return { files: files.length, bytes: files.reduce((sum, f) => sum + f.size, 0) };
}

/** Each listed object's size and SHA-256, in the order given. */
async function describeObjects(store: ObjectStore, listed: string[]): Promise<ManifestEntry[]> {
  const entries: ManifestEntry[] = new Array<ManifestEntry>(listed.length);
  let next = 0;
  const reader = async () => {
    while (next < listed.length) {
      const index = next++;
      const relative = listed[index];
      const key = relative.slice("uploads/".length);
      const stat = await store.stat(key);
      // Deleted after the database moment (tried again), or lost from the bucket (stays so).
      if (!stat) throw new ObjectVanished(`${relative} is not in the bucket, though the database names it`);
      entries[index] = { path: relative, size: stat.size, sha256: await checksumOf(store, key, stat) };
    }
  };
  await Promise.all(Array.from({ length: READS_AT_ONCE }, reader));
  return entries;
}

/** What is wrong with the bucket's objects against a manifest: each one missing, of another size, or other bytes. */
export async function objectProblems(store: ObjectStore, files: ManifestEntry[]): Promise<string[]> {
  const problems: string[] = [];
  for (const item of files) {
    const key = item.path.slice("uploads/".length);
    const stat = await store.stat(key);
    if (!stat) problems.push(`${item.path}: missing from the bucket`);
    else if (stat.size !== item.size) problems.push(`${item.path}: ${stat.size} bytes, the manifest says ${item.size}`);
    else if ((await checksumOf(store, key, stat)) !== item.sha256)
      problems.push(`${item.path}: checksum does not match`);
  }
  return problems;
}
