import fs from "node:fs";
import path from "node:path";

/** A file or folder found under a folder, with what a test asks of its mode. */
export interface Entry {
  path: string;
  folder: boolean;
  mode: number;
  gid: number;
}

/** Every file and folder under `root`, itself included (test helper). */
export function entriesUnder(root: string): Entry[] {
  const found: Entry[] = [];
  const visit = (file: string) => {
    const stat = fs.lstatSync(file, { throwIfNoEntry: false });
    if (!stat) return;
    found.push({ path: file, folder: stat.isDirectory(), mode: stat.mode & 0o7777, gid: stat.gid });
    if (stat.isDirectory()) for (const name of fs.readdirSync(file)) visit(path.join(file, name));
  };
  visit(root);
  return found;
}

/** `entries` whose mode is not `file` (files) or `folder` (folders), as `path 0644` lines: empty when all are right. */
export function wrongModes(entries: Entry[], want: { file: number; folder: number; gid?: number }): string[] {
  return entries
    .filter((e) => e.mode !== (e.folder ? want.folder : want.file) || (want.gid !== undefined && e.gid !== want.gid))
    .map((e) => `${e.path} ${e.mode.toString(8).padStart(4, "0")} gid ${e.gid}`);
}
