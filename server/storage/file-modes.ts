import { execFileSync } from "node:child_process";
import fs from "node:fs";
import fsp from "node:fs/promises";
import path from "node:path";
import type { Config } from "../config";

/** How files and folders are made: for Photodrop's own user only, or also readable by one group. */
export interface FileModes {
  file: number;
  dir: number;
  /** The group given read access (DATA_GROUP), by number; unset: the files' group is left as made. */
  gid?: number;
}

/** The database, backups, temp files, and the data folders unless DATA_GROUP is set. */
export const PRIVATE_MODES: FileModes = { file: 0o600, dir: 0o700 };

/** Set first thing by the server and its commands: whatever a library creates (sqlite, sharp) is the user's only. */
const PRIVATE_UMASK = 0o077;

export function restrictUmask(): void {
  process.umask(PRIVATE_UMASK);
}

/** A group's number from its name (the group file, then NSS through getent) or its number. */
export function groupId(group: string): number | undefined {
  if (/^\d+$/.test(group)) return Number(group);
  const fromFile = groupFile()
    .split("\n")
    .map((line) => line.split(":"))
    .find((fields) => fields[0] === group)?.[2];
  if (fromFile !== undefined) return Number(fromFile);
  try {
    return Number(execFileSync("getent", ["group", group], { encoding: "utf8" }).split(":")[2]);
  } catch {
    return undefined;
  }
}

function groupFile(): string {
  try {
    return fs.readFileSync("/etc/group", "utf8");
  } catch {
    return "";
  }
}

/** Why DATA_GROUP cannot be used, naming the setting; undefined when unset or usable. */
export function dataGroupProblem(config: Pick<Config, "dataGroup">): string | undefined {
  const group = config.dataGroup;
  if (!group) return undefined;
  const gid = groupId(group);
  if (gid === undefined || !Number.isSafeInteger(gid)) return `DATA_GROUP: there is no group ${group}`;
  // Only root, or a member, may hand a file to a group (chgrp).
  const member = process.geteuid?.() === 0 || process.getegid?.() === gid || process.getgroups?.().includes(gid);
  if (!member)
    return `DATA_GROUP: the user Photodrop runs as is not in group ${group}; add it (usermod -aG ${group} <user>) and start again`;
  return undefined;
}

const resolved = new WeakMap<object, FileModes>();

/**
 * The modes of UPLOADS_DIR's and PUBLISHED_DIR's files and folders: 0600 and 0700, or with
 * DATA_GROUP 0640 and 0750 in that group, so a proxy in the group can send them itself.
 */
export function dataFileModes(config: Pick<Config, "dataGroup">): FileModes {
  if (!config.dataGroup) return PRIVATE_MODES;
  let modes = resolved.get(config);
  if (!modes) {
    const gid = groupId(config.dataGroup);
    if (gid === undefined) throw new Error(`DATA_GROUP: there is no group ${config.dataGroup}`);
    modes = { file: 0o640, dir: 0o750, gid };
    resolved.set(config, modes);
  }
  return modes;
}

/** Gives a file or folder its mode (and group), whatever the umask left it. */
export async function settle(file: string, mode: number, modes: FileModes): Promise<void> {
  if (modes.gid !== undefined) await fsp.chown(file, -1, modes.gid);
  await fsp.chmod(file, mode);
}

export function settleSync(file: string, mode: number, modes: FileModes): void {
  if (modes.gid !== undefined) fs.chownSync(file, -1, modes.gid);
  fs.chmodSync(file, mode);
}

/** A file about to be placed in a data folder: private ones are made 0600 already, a group's need their bits. */
export async function settleFile(file: string, modes: FileModes): Promise<void> {
  await settle(file, modes.file, modes);
}

/**
 * Makes a folder and any missing parent with the folder mode. mkdir's mode passes through the
 * umask, which takes the group's bits: with a group, each folder made is set afterwards.
 */
export async function makeFolder(dir: string, modes: FileModes = PRIVATE_MODES): Promise<void> {
  const first = await fsp.mkdir(dir, { recursive: true, mode: modes.dir });
  if (first === undefined || modes.gid === undefined) return;
  for (const made of foldersMade(first, dir)) await settle(made, modes.dir, modes);
}

export function makeFolderSync(dir: string, modes: FileModes = PRIVATE_MODES): void {
  const first = fs.mkdirSync(dir, { recursive: true, mode: modes.dir });
  if (first === undefined || modes.gid === undefined) return;
  for (const made of foldersMade(first, dir)) settleSync(made, modes.dir, modes);
}

/** `first` (the outermost folder mkdir made) and each folder below it down to `dir`. */
function foldersMade(madeFirst: string, folder: string): string[] {
  const [first, dir] = [path.resolve(madeFirst), path.resolve(folder)];
  const made = [dir];
  for (let d = dir; d !== first && path.dirname(d) !== d; d = path.dirname(d)) made.unshift(path.dirname(d));
  return made;
}
