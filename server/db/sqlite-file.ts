import fs from "node:fs";
import path from "node:path";
import { makeFolderSync, PRIVATE_MODES } from "../storage/file-modes";

/** The files sqlite keeps beside a database: its write-ahead log, shared memory and rollback journal. */
const SQLITE_COMPANIONS = ["-wal", "-shm", "-journal"];

const ignorable = (err: unknown) =>
  ["ENOENT", "EPERM", "EACCES", "EROFS"].includes((err as NodeJS.ErrnoException).code ?? "");

/**
 * Before sqlite opens a database file: made 0600 (in a 0700 folder when the folder is new) if it
 * is not there, set 0600 with its companions if an older install left them readable. sqlite makes
 * the WAL and shared-memory files with the database's own mode, so they follow it. Best effort:
 * a file Photodrop's user does not own keeps its mode.
 */
export function privateSqliteFile(filename: string): void {
  makeFolderSync(path.dirname(path.resolve(filename)));
  try {
    fs.writeFileSync(filename, "", { flag: "wx", mode: PRIVATE_MODES.file });
    return;
  } catch (err) {
    // One that cannot be made is sqlite's to report, as it always was ("Cannot open database").
    if ((err as NodeJS.ErrnoException).code !== "EEXIST") {
      if (ignorable(err)) return;
      throw err;
    }
  }
  for (const file of [filename, ...SQLITE_COMPANIONS.map((suffix) => `${filename}${suffix}`)]) {
    try {
      if ((fs.statSync(file).mode & 0o777) !== PRIVATE_MODES.file) fs.chmodSync(file, PRIVATE_MODES.file);
    } catch (err) {
      if (!ignorable(err)) throw err;
    }
  }
}
