import fs from "node:fs";
import path from "node:path";
import { BackupError } from "./backup-error";

/** Why a restored project has no ZIP: a backup leaves the ZIPs out unless asked (they can be rebuilt). */
export const ZIP_LEFT_OUT = "The ZIP was not included in the backup; publish again to rebuild it";

/** A backup goes into a new or empty folder only. */
export function prepareEmptyFolder(folder: string) {
  if (fs.existsSync(folder)) {
    if (!fs.statSync(folder).isDirectory()) throw new BackupError(`${folder} is not a folder`);
    if (fs.readdirSync(folder).length > 0)
      throw new BackupError(`${folder} is not empty; back up into a new or empty folder`);
  }
  fs.mkdirSync(folder, { recursive: true });
}

export function emptyFolder(folder: string) {
  for (const name of fs.readdirSync(folder)) fs.rmSync(path.join(folder, name), { recursive: true, force: true });
}
