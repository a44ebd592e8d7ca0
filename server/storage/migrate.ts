import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import { checksumOf, sha256Of } from "./object-checksum";
import type { ListedObject, ObjectStore } from "./object-store";
import { StorageNotFoundError } from "./object-store";

/** What happened to one object: copied and verified, already in the destination, or neither. */
export type Outcome =
  | "copied"
  | "present"
  /** Dry run: it would be copied. */
  | "would-copy"
  /** Listed in the source, then deleted there before its turn (a photo removed meanwhile). */
  | "gone"
  | "failed";

export interface ObjectResult {
  key: string;
  size: number;
  outcome: Outcome;
  /** Why it failed. */
  reason?: string;
}

export interface MigrationProgress {
  files: number;
  bytes: number;
  /** Objects dealt with so far, whatever the outcome, and their bytes. */
  doneFiles: number;
  doneBytes: number;
  /** Bytes actually copied (or that a dry run would copy). */
  copiedBytes: number;
  counts: Record<Outcome, number>;
}

export interface MigrationSummary extends MigrationProgress {
  failures: ObjectResult[];
}

export interface MigrateOptions {
  dryRun?: boolean;
  /** Objects copied at once. */
  concurrency?: number;
  onResult?: (result: ObjectResult, progress: MigrationProgress) => void;
}

/** Partial or foreign files a folder may hold beside its objects: never copied. */
const isPartial = (key: string) => key.endsWith(".part") || key.split("/").some((part) => part.startsWith("."));

const CONTENT_TYPES: Record<string, string> = {
  ".jpg": "image/jpeg",
  ".jpeg": "image/jpeg",
  ".png": "image/png",
  ".gif": "image/gif",
  ".webp": "image/webp",
};

/** Every object of a store, sorted by key (the total is known before the first copy, for the progress). */
export async function listObjects(store: ObjectStore): Promise<ListedObject[]> {
  const objects: ListedObject[] = [];
  for await (const object of store.list("")) if (!isPartial(object.key)) objects.push(object);
  return objects.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}

/**
 * The source's checksum when it is cheap to know before copying (recorded, or a file on this
 * machine), so the destination can record it; undefined for an object that would have to be
 * downloaded twice.
 */
async function knownChecksum(source: ObjectStore, key: string): Promise<string | undefined> {
  const file = source.localFile(key);
  if (file) return (await sha256Of(fs.createReadStream(file))).sha256;
  return (await source.stat(key))?.sha256;
}

/** Whether the destination already holds the object's exact bytes (a run before this one copied it). */
async function alreadyThere(source: ObjectStore, target: ObjectStore, object: ListedObject): Promise<boolean> {
  const existing = await target.stat(object.key);
  if (!existing || existing.size !== object.size) return false;
  const sourceStat = await source.stat(object.key);
  if (!sourceStat) throw new StorageNotFoundError(object.key);
  const [have, want] = await Promise.all([
    checksumOf(target, object.key, existing),
    checksumOf(source, object.key, sourceStat),
  ]);
  return have === want;
}

/** Copies one object through a stream, hashing it on the way, then reads the copy back to compare. */
async function copyVerified(source: ObjectStore, target: ObjectStore, key: string): Promise<string | undefined> {
  const expected = await knownChecksum(source, key);
  const hash = crypto.createHash("sha256");
  const tap = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      hash.update(chunk);
      done(null, chunk);
    },
  });
  const body = await source.get(key);
  const reading = pipeline(body, tap);
  try {
    await Promise.all([
      reading,
      target.put(key, tap, { sha256: expected, contentType: CONTENT_TYPES[path.extname(key).toLowerCase()] }),
    ]);
  } catch (err) {
    // A destination that failed leaves the source open (a file handle, a socket) unless closed here.
    body.destroy();
    tap.destroy();
    await reading.catch(() => undefined);
    throw err;
  }
  const copied = hash.digest("hex");
  const stored = (await sha256Of(await target.get(key))).sha256;
  if (stored === copied && (!expected || expected === copied)) return undefined;
  // Removed, so that no later run trusts a checksum recorded with bytes that do not match it.
  await target.remove(key);
  return expected && expected !== copied
    ? "the source changed while it was being copied"
    : "the copy read back does not match the source's SHA-256";
}

async function migrateOne(
  source: ObjectStore,
  target: ObjectStore,
  object: ListedObject,
  dryRun: boolean,
): Promise<ObjectResult> {
  const result = (outcome: Outcome, reason?: string): ObjectResult => ({
    key: object.key,
    size: object.size,
    outcome,
    reason,
  });
  try {
    if (await alreadyThere(source, target, object)) return result("present");
    if (dryRun) return result("would-copy");
    const failure = await copyVerified(source, target, object.key);
    return failure ? result("failed", failure) : result("copied");
  } catch (err) {
    // Whatever failed (a read, a hash), a source deleted meanwhile explains it.
    if (!(await source.stat(object.key).then(Boolean, () => true))) return result("gone");
    return result("failed", err instanceof Error ? err.message : String(err));
  }
}

/**
 * Copies every object of `source` that `target` lacks (or holds with other bytes), verifying
 * each copy's SHA-256; never removes or changes a source object, so the server may keep working
 * on the source meanwhile, and a second run copies only what the first did not (or what was
 * added since).
 */
export async function migrateObjects(
  source: ObjectStore,
  target: ObjectStore,
  options: MigrateOptions = {},
): Promise<MigrationSummary> {
  const objects = await listObjects(source);
  const progress: MigrationProgress = {
    files: objects.length,
    bytes: objects.reduce((sum, o) => sum + o.size, 0),
    doneFiles: 0,
    doneBytes: 0,
    copiedBytes: 0,
    counts: { copied: 0, present: 0, "would-copy": 0, gone: 0, failed: 0 },
  };
  const failures: ObjectResult[] = [];
  let next = 0;
  const worker = async () => {
    while (next < objects.length) {
      const object = objects[next++];
      const result = await migrateOne(source, target, object, options.dryRun ?? false);
      progress.doneFiles += 1;
      progress.doneBytes += object.size;
      progress.counts[result.outcome] += 1;
      if (result.outcome === "copied" || result.outcome === "would-copy") progress.copiedBytes += object.size;
      if (result.outcome === "failed") failures.push(result);
      options.onResult?.(result, progress);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, options.concurrency ?? 4) }, worker));
  return { ...progress, failures };
}
