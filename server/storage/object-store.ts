import type { Readable, Writable } from "node:stream";

/** What a store knows of one object without reading it. */
export interface ObjectStat {
  size: number;
  mtime: Date;
  /** The SHA-256 (hex) recorded with the object when it was stored with one (PutOptions.sha256); the disk keeps none. */
  sha256?: string;
}

/** One object found by `list`: its key relative to the store. */
export interface ListedObject extends ObjectStat {
  key: string;
}

/** Bytes [start, end] of an object, both inclusive. */
export interface ByteRange {
  start: number;
  end: number;
}

/**
 * An object being built from parts (a multipart upload, or a `.part` file on disk): write its
 * bytes to `stream`, then `complete()` makes it appear whole under its key, or `abort()` leaves
 * nothing behind. Until `complete()` resolves, the key names no object.
 */
export interface ObjectWriter {
  readonly stream: Writable;
  complete(): Promise<void>;
  abort(): Promise<void>;
}

/** The headers a presigned download is answered with. */
export interface DownloadAnswer {
  contentType: string;
  contentDisposition: string;
}

export interface PutOptions {
  contentType?: string;
  /** The bytes' SHA-256 (hex), recorded with the object where the store can (S3 user metadata). */
  sha256?: string;
}

/**
 * Where Photodrop's files live: a folder on this machine or a bucket (docs/object-storage.md). Keys
 * are relative, `/`-separated names Photodrop generates (`<projectId>/<32 hex>.jpg`); a store
 * never rewrites an object in place, so a key's bytes never change once it exists.
 */
export interface ObjectStore {
  readonly kind: "disk" | "s3";
  /** Stores a stream's bytes under `key`, whole or not at all. */
  put(key: string, body: Readable, options?: PutOptions): Promise<void>;
  /** Stores a local file under `key`, whole or not at all; the file is gone afterwards (moved on disk). */
  moveFileIn(key: string, file: string, options?: PutOptions): Promise<void>;
  /** The object's bytes, or a range of them; rejects with StorageNotFoundError when there is none. */
  get(key: string, range?: ByteRange): Promise<Readable>;
  /** Size and time of the object, undefined when there is none. */
  stat(key: string): Promise<ObjectStat | undefined>;
  /** Removes objects; one already gone is no error. */
  remove(...keys: string[]): Promise<void>;
  /** Removes every object whose key starts with `prefix` (a folder's name ending in `/`). */
  removePrefix(prefix: string): Promise<void>;
  /** Every object whose key starts with `prefix`, in no particular order. */
  list(prefix: string): AsyncIterable<ListedObject>;
  /** Starts building an object from parts under `key` (see ObjectWriter). */
  createWriter(key: string, options?: PutOptions): ObjectWriter;
  /**
   * Gives an object another key (a rename on disk; in object storage a copy, then the old one
   * removed). Rejects with StorageNotFoundError (code ENOENT) when there is none.
   */
  rename(from: string, to: string): Promise<void>;
  /**
   * Aborts the unfinished multipart uploads under `prefix` started before `startedBefore` (left by
   * a process that died while writing), sparing the keys `keep` answers true for; answers how many
   * went. The disk has none: its `.part` files are swept by whoever writes them.
   */
  abortUnfinishedWriters(prefix: string, startedBefore: Date, keep: (key: string) => boolean): Promise<number>;
  /**
   * A short-lived URL from which a client fetches the object from the storage itself, answered
   * with these headers (S3_PRESIGNED_DOWNLOADS); undefined where files go through Photodrop.
   * Rejects with StorageNotFoundError when there is no such object.
   */
  presignedDownload(key: string, answer: DownloadAnswer): Promise<string | undefined>;
  /**
   * The file on this machine that holds `key`, for what only a local file allows (the proxy's
   * X-Accel-Redirect, `send`'s sendfile, sharp reading in place); undefined in object storage.
   */
  localFile(key: string): string | undefined;
}

/** No object under the key (deleted, or never stored). */
export class StorageNotFoundError extends Error {
  readonly code = "ENOENT";
  constructor(key: string) {
    super(`no stored object ${key}`);
  }
}

/** Reads a whole (small) object into memory. */
export async function readAll(body: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks);
}
