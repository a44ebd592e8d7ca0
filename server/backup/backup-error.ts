import type { Config } from "../config";

/** A backup or restore that cannot go ahead; its message is meant for the person running it. */
export class BackupError extends Error {}

/** A backup or restore that ran out of room: it names the disk and what was left behind. */
export function diskFullMessage(where: string, outcome: string): string {
  return `The disk holding ${where} is full: ${outcome}. Free some space there (or choose another disk) and try again.`;
}

/** Until backup knows objects (README, "Object storage"), it says so rather than failing on a missing file. */
export function refuseObjectStorage(config: Config): void {
  if (config.storage.kind !== "disk")
    throw new BackupError(
      "Backup and restore do not support object storage (STORAGE_URL) yet: back up the bucket with its provider's tools and the database on its own",
    );
}
