import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import { makeFolder, PRIVATE_MODES } from "./file-modes";
import type { ObjectStore } from "./object-store";
import { removeQuietly } from "./paths";

/**
 * Runs `work` on a file holding the object's bytes: its own file on disk, or a copy fetched from
 * object storage into `tempDir` (sharp and the JPEG checks read files), removed afterwards.
 */
export async function withLocalCopy<T>(
  store: ObjectStore,
  key: string,
  tempDir: string,
  work: (file: string) => Promise<T>,
): Promise<T> {
  const local = store.localFile(key);
  if (local) return work(local);
  await makeFolder(tempDir);
  const copy = path.join(tempDir, `${crypto.randomBytes(12).toString("hex")}${path.posix.extname(key)}`);
  try {
    await pipeline(await store.get(key), fs.createWriteStream(copy, { flags: "wx", mode: PRIVATE_MODES.file }));
    return await work(copy);
  } finally {
    await removeQuietly(copy);
  }
}
