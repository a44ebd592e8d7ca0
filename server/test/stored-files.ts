import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import type { AppContext } from "../context";
import { readAll, type ObjectStore } from "../storage/object-store";
import { storesOf } from "../storage/stores";

/** Every file under a folder, relative to it with `/`, dot-folders included, sorted. */
export function filesUnder(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => path.relative(dir, path.join(e.parentPath, e.name)).split(path.sep).join("/"))
    .sort();
}

/** Every key of a store under `prefix`, sorted. */
export async function keysIn(store: ObjectStore, prefix = ""): Promise<string[]> {
  const keys: string[] = [];
  for await (const object of store.list(prefix)) keys.push(object.key);
  return keys.sort();
}

/**
 * What the app keeps of uploads, wherever it keeps them: every file under UPLOADS_DIR (the
 * receive folders in `.tmp/` included) and, in object storage, every object's key.
 */
export async function storedUploads(ctx: AppContext): Promise<string[]> {
  const store = storesOf(ctx.config).uploads;
  const keys = filesUnder(ctx.config.uploadsDir);
  return store.kind === "disk" ? keys : [...keys, ...(await keysIn(store))].sort();
}

/** The store a test looks in: the photos' (uploads, the default) or the published ZIPs'. */
type StoreName = "uploads" | "published";

export async function isStored(ctx: AppContext, key: string, store: StoreName = "uploads"): Promise<boolean> {
  return (await storesOf(ctx.config)[store].stat(key)) !== undefined;
}

export async function readStored(ctx: AppContext, key: string, store: StoreName = "uploads"): Promise<Buffer> {
  return readAll(await storesOf(ctx.config)[store].get(key));
}

/** Stores bytes under a key as an upload or a build would have (a test's own arrangement). */
export async function writeStored(
  ctx: AppContext,
  key: string,
  bytes: Buffer | string,
  store: StoreName = "uploads",
): Promise<void> {
  await storesOf(ctx.config)[store].put(key, Readable.from([Buffer.from(bytes)]));
}

export async function removeStored(ctx: AppContext, key: string, store: StoreName = "uploads"): Promise<void> {
  await storesOf(ctx.config)[store].remove(key);
}

/** The published ZIPs' keys (their names), wherever they are kept; on disk, `.part` files too. */
export function publishedKeys(ctx: AppContext): Promise<string[]> {
  return keysIn(storesOf(ctx.config).published);
}

/** A published ZIP's bytes in a file of their own (a scratch copy in object storage), for yauzl and unzip -t. */
export async function publishedZipCopy(ctx: AppContext, key: string): Promise<string> {
  const local = storesOf(ctx.config).published.localFile(key);
  if (local) return local;
  const copy = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "photodrop-zip-")), key);
  fs.writeFileSync(copy, await readStored(ctx, key, "published"));
  return copy;
}
