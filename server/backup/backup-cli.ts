import { loadConfig, ConfigError } from "../config";
import { createBackup } from "./backup";
import { BackupError } from "./backup-error";
import { restoreBackup } from "./restore";
import { restrictUmask } from "../storage/file-modes";

const USAGE = `Usage:
  npm run backup -- <folder> [--with-zips]   back up the running Photodrop into a new or empty folder
  npm run restore -- <folder>                 restore a backup into an empty database and data folders
DATABASE_URL, UPLOADS_DIR and PUBLISHED_DIR (or STORAGE_URL) say where Photodrop's data is, as for the server.`;

const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  const flags = rest.filter((a) => a.startsWith("--"));
  const folders = rest.filter((a) => !a.startsWith("--"));
  const unknown = flags.filter((f) => !(command === "backup" && f === "--with-zips"));
  if ((command !== "backup" && command !== "restore") || folders.length !== 1 || unknown.length > 0) {
    console.error(USAGE);
    return 2;
  }
  restrictUmask();
  const config = loadConfig();
  if (command === "backup") {
    const summary = await createBackup(config, folders[0], { withZips: flags.includes("--with-zips") });
    console.log(
      summary.method === "listed"
        ? `Backed up the database and a manifest of ${summary.files} objects (${mib(summary.bytes)}, left in the bucket) into ${folders[0]}`
        : `Backed up the database and ${summary.files} files (${mib(summary.bytes)}, ${summary.method}) into ${folders[0]}`,
    );
  } else {
    const summary = await restoreBackup(config, folders[0]);
    console.log(
      config.storage.kind === "disk"
        ? `Restored the database and ${summary.files} files (${mib(summary.bytes)}) from ${folders[0]}`
        : `Restored the database from ${folders[0]}; its ${summary.files} objects (${mib(summary.bytes)}) are in the bucket with their checksums`,
    );
  }
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err) => {
    if (err instanceof BackupError || err instanceof ConfigError) console.error(err.message);
    else console.error("The backup command failed:", err);
    process.exit(1);
  },
);
