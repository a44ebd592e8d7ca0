import fsp from "node:fs/promises";
import path from "node:path";
import type { Logger } from "pino";
import type { Config } from "../config";
import { dataFileModes, PRIVATE_MODES, settle, type FileModes } from "./file-modes";
import { uploadsTempRoot } from "./paths";

export interface TightenSummary {
  /** Files and folders looked at. */
  seen: number;
  /** Those whose mode or group was changed. */
  changed: number;
  /** Those that could not be changed (owned by another user); logged once. */
  failed: number;
  ms: number;
}

/** Entries stat'ed at once: enough to keep the disk busy, few enough to leave libuv's threads to requests. */
const AT_ONCE = 8;

const gone = (err: unknown) => ["ENOENT", "ENOTDIR"].includes((err as NodeJS.ErrnoException).code ?? "");

/**
 * Gives every file and folder under `root` (itself included) the modes where it has not them:
 * one lstat per entry, a chmod only where one is wrong, so an install already right is only
 * read, never rewritten. Symbolic links are left alone; `skip` names folders walked by another call.
 */
export async function tightenFolder(
  root: string,
  modes: FileModes,
  summary: TightenSummary,
  skip: string[] = [],
): Promise<void> {
  const folders = [root];
  if (!(await fix(root, modes, summary))) return;
  for (let folder = folders.pop(); folder !== undefined; folder = folders.pop()) {
    const dir = await fsp.opendir(folder).catch((err: unknown) => {
      if (gone(err)) return undefined;
      throw err;
    });
    if (!dir) continue;
    let batch: string[] = [];
    const flush = async () => {
      const kinds = await Promise.all(batch.map((entry) => fix(entry, modes, summary)));
      kinds.forEach((kind, i) => kind === "folder" && folders.push(batch[i]));
      batch = [];
    };
    for await (const entry of dir) {
      const full = path.join(folder, entry.name);
      if (skip.includes(full) || !(entry.isFile() || entry.isDirectory())) continue;
      batch.push(full);
      if (batch.length === AT_ONCE) await flush();
    }
    await flush();
  }
}

async function fix(entry: string, modes: FileModes, summary: TightenSummary): Promise<"file" | "folder" | undefined> {
  const stat = await fsp.lstat(entry).catch((err: unknown) => {
    if (gone(err)) return undefined;
    throw err;
  });
  if (!stat || !(stat.isFile() || stat.isDirectory())) return undefined;
  summary.seen++;
  const kind = stat.isDirectory() ? "folder" : "file";
  const mode = kind === "folder" ? modes.dir : modes.file;
  if ((stat.mode & 0o7777) !== mode || (modes.gid !== undefined && stat.gid !== modes.gid)) {
    try {
      await settle(entry, mode, modes);
      summary.changed++;
    } catch (err) {
      if (!gone(err)) summary.failed++;
    }
  }
  return kind;
}

/**
 * At start, in the background: the data folders' files and folders to their modes (0600 and
 * 0700, or the group's), the receive area always private. Never rejects; logs what it changed.
 */
export async function tightenDataFolders(config: Config, logger: Logger): Promise<TightenSummary> {
  const summary: TightenSummary = { seen: 0, changed: 0, failed: 0, ms: 0 };
  const started = performance.now();
  try {
    const modes = dataFileModes(config);
    const temp = uploadsTempRoot(config);
    await tightenFolder(config.uploadsDir, modes, summary, [temp]);
    await tightenFolder(temp, PRIVATE_MODES, summary);
    if (config.publishedDir !== config.uploadsDir) await tightenFolder(config.publishedDir, modes, summary);
  } catch (err) {
    logger.warn({ err }, "could not set the data folders' file modes");
  }
  summary.ms = Math.round(performance.now() - started);
  if (summary.failed > 0)
    logger.warn(summary, "some files in the data folders belong to another user: their modes were left as they are");
  else if (summary.changed > 0) logger.info(summary, "data folders' file modes tightened");
  return summary;
}
