import crypto from "node:crypto";
import type { Readable } from "node:stream";
import type { ObjectStat, ObjectStore } from "./object-store";

/** A stream's SHA-256 (hex) and length, read to its end. */
export async function sha256Of(body: Readable): Promise<{ sha256: string; size: number }> {
  const hash = crypto.createHash("sha256");
  let size = 0;
  for await (const chunk of body) {
    hash.update(chunk as Buffer);
    size += (chunk as Buffer).length;
  }
  return { sha256: hash.digest("hex"), size };
}

/** An object's SHA-256: the one recorded with it (ObjectStat.sha256), or its bytes read and hashed. */
export async function checksumOf(store: ObjectStore, key: string, stat: ObjectStat): Promise<string> {
  return stat.sha256 ?? (await sha256Of(await store.get(key))).sha256;
}
