import fs from "node:fs";
import path from "node:path";
import { openDatabase, type Db } from "../db/database";
import { sqliteFile } from "../db/dialect";
import { makeFolderSync, PRIVATE_MODES } from "../storage/file-modes";
import { BackupError } from "./backup-error";

/**
 * The database half of a backup. sqlite is the one implemented; PostgreSQL (pg_dump and
 * pg_restore) comes with the PostgreSQL support (issue 10) behind this same interface.
 */
export interface DatabaseBackup {
  /** The file name the copy has inside a backup folder. */
  readonly fileName: string;
  /** Writes a consistent copy of the live database to `file` while the server keeps running. */
  snapshot(file: string): Promise<void>;
  /** Opens a copy made by `snapshot`, to read which files it lists. */
  openCopy(file: string): Db;
  /** Refuses when the target database already holds something. */
  assertTargetEmpty(): void;
  /** Puts a copy in place as the target database (which must be empty). */
  restore(file: string): Promise<void>;
}

export function databaseBackupFor(databaseUrl: string): DatabaseBackup {
  if (/^postgres(ql)?:\/\//.test(databaseUrl)) {
    throw new BackupError(
      "Backing up a PostgreSQL database (pg_dump/pg_restore) is not available yet; it comes with PostgreSQL support",
    );
  }
  return new SqliteBackup(sqliteFile(databaseUrl));
}

class SqliteBackup implements DatabaseBackup {
  readonly fileName = "database.sqlite3";

  constructor(private readonly file: string) {}

  async snapshot(target: string): Promise<void> {
    if (!fs.existsSync(this.file)) throw new BackupError(`No database at ${this.file}`);
    const live = openDatabase(this.file);
    try {
      // Made first, 0600: VACUUM INTO writes into an empty file as it is, instead of one of the umask's.
      fs.writeFileSync(target, "", { flag: "wx", mode: PRIVATE_MODES.file });
      // sqlite's online copy: one read transaction, so writers carry on (WAL) and the copy is one moment.
      await live.raw("VACUUM INTO ?", [target]);
    } finally {
      await live.destroy();
    }
  }

  openCopy(file: string): Db {
    return openDatabase(file);
  }

  assertTargetEmpty(): void {
    for (const file of [this.file, `${this.file}-wal`]) {
      if (fs.existsSync(file) && fs.statSync(file).size > 0) {
        throw new BackupError(`The database ${file} already exists; restore only into a new, empty place`);
      }
    }
  }

  async restore(copy: string): Promise<void> {
    this.assertTargetEmpty();
    makeFolderSync(path.dirname(path.resolve(this.file)));
    const part = `${this.file}.restoring`;
    try {
      await fs.promises.copyFile(copy, part);
      await fs.promises.chmod(part, PRIVATE_MODES.file);
      await fs.promises.rm(`${this.file}-shm`, { force: true });
      await fs.promises.rename(part, this.file);
    } finally {
      await fs.promises.rm(part, { force: true });
    }
  }
}
