import fs from "node:fs";
import { ConfigError, loadConfig } from "../config";
import { DiskStore } from "./disk-store";
import { dataFileModes, restrictUmask } from "./file-modes";
import { migrateObjects, type MigrationSummary } from "./migrate";
import type { ObjectStore } from "./object-store";
import { mib, progressReporter } from "./migrate-progress";
import { uploadsTempRoot } from "./paths";
import { openStores, storageProblem } from "./stores";

const USAGE = `Usage:
  npm run storage:migrate -- --to s3 [--dry-run] [--concurrency N]   copy UPLOADS_DIR's and PUBLISHED_DIR's files into STORAGE_URL
  npm run storage:migrate -- --to disk [--dry-run] [--concurrency N] copy STORAGE_URL's objects into UPLOADS_DIR and PUBLISHED_DIR
STORAGE_URL (s3://bucket/prefix), the S3_* settings, UPLOADS_DIR and PUBLISHED_DIR are read as for the server.
Nothing is removed from either side; a second run copies only what is missing or differs.`;

/** A problem the person running the command can fix; its message says how. */
class MigrateError extends Error {}

interface Args {
  to: "s3" | "disk";
  dryRun: boolean;
  concurrency: number;
}

function parseArgs(argv: string[]): Args | undefined {
  let to: string | undefined;
  let dryRun = false;
  let concurrency = 4;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === "--to") to = argv[++i];
    else if (arg.startsWith("--to=")) to = arg.slice("--to=".length);
    else if (arg === "--dry-run") dryRun = true;
    else if (arg === "--concurrency") concurrency = Number(argv[++i]);
    else return undefined;
  }
  if ((to !== "s3" && to !== "disk") || !Number.isInteger(concurrency) || concurrency < 1 || concurrency > 32)
    return undefined;
  return { to, dryRun, concurrency };
}

function summaryLine(summary: MigrationSummary, dryRun: boolean, from: string, to: string): string {
  const { counts } = summary;
  const others = [
    `${counts.present} already there`,
    ...(counts.gone > 0 ? [`${counts.gone} deleted from the source meanwhile`] : []),
    ...(counts.failed > 0 ? [`${counts.failed} failed`] : []),
  ].join(", ");
  return dryRun
    ? `Dry run: ${counts["would-copy"]} of ${summary.files} files (${mib(summary.copiedBytes)}) would be copied from ${from} to ${to}; ${others}. Nothing was written.`
    : `Copied ${counts.copied} of ${summary.files} files (${mib(summary.copiedBytes)}) from ${from} to ${to}, each verified by its SHA-256; ${others}.`;
}

async function main(argv: string[]): Promise<number> {
  const args = parseArgs(argv);
  if (!args) {
    console.error(USAGE);
    return 2;
  }
  restrictUmask();
  const config = loadConfig();
  const { storage } = config;
  if (storage.kind !== "s3")
    throw new MigrateError(
      "Set STORAGE_URL (s3://bucket/prefix) and the S3_* settings to name the bucket to copy with",
    );
  if (args.to === "s3" && !fs.existsSync(config.uploadsDir))
    throw new MigrateError(`UPLOADS_DIR ${config.uploadsDir} does not exist: nothing to copy`);
  const problem = await storageProblem(config);
  if (problem) throw new MigrateError(problem);

  const bucket = await openStores(config);
  const modes = dataFileModes(config);
  const uploads = await copyAll(
    args,
    new DiskStore(config.uploadsDir, uploadsTempRoot(config), modes),
    bucket.uploads,
    [config.uploadsDir, `s3://${storage.bucket}/${storage.prefix}uploads/`],
  );
  // The published ZIPs keep their names (the delivery links' tokens) in the bucket.
  const published = await copyAll(args, new DiskStore(config.publishedDir, undefined, modes), bucket.published, [
    config.publishedDir,
    `s3://${storage.bucket}/${storage.prefix}published/`,
  ]);
  return uploads.counts.failed + published.counts.failed > 0 ? 1 : 0;
}

/** Copies one folder's files into the bucket, or back, with its progress and summary line. */
async function copyAll(
  args: Args,
  disk: DiskStore,
  bucket: ObjectStore,
  [folder, bucketName]: [string, string],
): Promise<MigrationSummary> {
  const [source, target] = args.to === "s3" ? [disk, bucket] : [bucket, disk];
  const [from, to] = args.to === "s3" ? [folder, bucketName] : [bucketName, folder];
  const progress = progressReporter(process.stderr);
  const summary = await migrateObjects(source, target, {
    dryRun: args.dryRun,
    concurrency: args.concurrency,
    onResult: (result, sofar) => {
      if (result.outcome === "failed") progress.note(`failed ${result.key}: ${result.reason}`);
      if (result.outcome === "would-copy")
        progress.note(`would copy ${result.key} (${result.size} bytes)`, process.stdout);
      progress.update(sofar);
    },
  });
  progress.finish(summary);
  console.log(summaryLine(summary, args.dryRun, from, to));
  return summary;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: unknown) => {
    if (err instanceof MigrateError || err instanceof ConfigError) console.error(err.message);
    else console.error("The storage migration failed:", err);
    process.exit(1);
  },
);
