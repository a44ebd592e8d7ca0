import fs from "node:fs";
import path from "node:path";
import { makeFolderSync, PRIVATE_MODES } from "../storage/file-modes";
import { BackupError } from "./backup-error";

/** Why a restored project has no ZIP: a backup leaves the ZIPs out unless asked (they can be rebuilt). */
export const ZIP_LEFT_OUT = "The ZIP was not included in the backup; publish again to rebuild it";

/** A backup goes into a new or empty folder only, which is then its user's only (0700): it holds the signing keys. */
export function prepareEmptyFolder(folder: string) {
  if (fs.existsSync(folder)) {
    if (!fs.statSync(folder).isDirectory()) throw new BackupError(`${folder} is not a folder`);
    if (fs.readdirSync(folder).length > 0)
      throw new BackupError(`${folder} is not empty; back up into a new or empty folder`);
  }
  makeFolderSync(folder);
  fs.chmodSync(folder, PRIVATE_MODES.dir);
}

export function emptyFolder(folder: string) {
  for (const name of fs.readdirSync(folder)) fs.rmSync(path.join(folder, name), { recursive: true, force: true });
}
