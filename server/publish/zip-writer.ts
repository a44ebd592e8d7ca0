import fsp from "node:fs/promises";
import { Transform, type TransformCallback, type Readable, type Writable } from "node:stream";
import zlib from "node:zlib";
import * as archiverModule from "archiver";
import type { Archiver, ZipEntryData } from "archiver";
import { BufferPool, PooledFileReader, PooledFileWriter, PushedLengths } from "./pooled-io";
import type { ObjectStore, ObjectWriter } from "../storage/object-store";
import { StoredObjectReader } from "./stored-source";

/** One file to store in the archive: a path, or a key of `WriteZipOptions.readFrom`. */
export interface ZipSource {
  file: string;
  name: string;
  size: number;
  date: Date;
}

export interface WriteZipOptions {
  signal: AbortSignal;
  /** Called with the number of bytes just read from a source file. */
  onBytes?: (bytes: number) => void;
  /** The store the sources' keys name, when they are not files on this machine (object storage). */
  readFrom?: ObjectStore;
  /** Archive size from which ZIP64 end records are always written (tests lower it). */
  zip64Threshold?: number;
}

/** Photos are already compressed; large reads are what makes storing fast (see stack-notes). */
const READ_BUFFER = 1024 * 1024;
/**
 * Files opened and read while archiver stores the ones before them. One at a time, each small
 * photo waited for its open and read in turn; with a few ahead those round trips overlap the
 * writing. Each holds at most one read buffer.
 */
const FILES_AHEAD = 4;
const ZIP32_LIMIT = 0xffffffff;
const STORED = 0;

// @types/archiver describes v6 (a default factory); v8 is ESM with named classes only.
const { ZipArchive } = archiverModule as unknown as {
  ZipArchive: new (options: { store: boolean; forceZip64: boolean }) => Archiver;
};

/**
 * compress-commons switches to ZIP64 by itself once an offset passes 4 GiB; forcing its end
 * records near that size also covers the single offset of exactly 0xFFFFFFFF it misses.
 */
function estimatedArchiveSize(sources: ZipSource[]): number {
  return sources.reduce((sum, s) => sum + s.size + 128 + 2 * Buffer.byteLength(s.name), 22);
}

/**
 * Writes a store-mode ZIP of the sources to `out`, reading one file at a time: a file (which must
 * not exist), fsynced, or an object being built (completed once whole). On any failure or abort
 * the partial file is removed, or the object aborted, and the error (or the signal's reason) is thrown.
 */
export async function writeZip(
  sources: ZipSource[],
  out: string | ObjectWriter,
  options: WriteZipOptions,
): Promise<void> {
  const { signal, onBytes, readFrom } = options;
  signal.throwIfAborted();
  const pool = new BufferPool(READ_BUFFER);
  const pushed = new PushedLengths();
  // The writer fsyncs before it closes, so "closed" means "on disk".
  const file = typeof out === "string" ? new PooledFileWriter(out, pool, pushed) : undefined;
  const output: Writable = file ?? (out as ObjectWriter).stream;
  const forceZip64 = estimatedArchiveSize(sources) >= (options.zip64Threshold ?? ZIP32_LIMIT - 64 * 1024 * 1024);
  const archive = new ZipArchive({ store: true, forceZip64 });
  useNativeCrc(archive);
  gatherHeaderWrites(archive);
  /** The entry being stored, then the files read ahead of it. */
  const opened: Readable[] = [];

  // One promise settles on the first failure from any stream in the pipeline, or on abort.
  let fail!: (err: unknown) => void;
  const failed = new Promise<never>((_, reject) => (fail = reject));
  failed.catch(() => {});
  const onAbort = () => fail(signal.reason);
  signal.addEventListener("abort", onAbort, { once: true });
  archive.on("error", fail);
  archive.on("warning", fail);
  output.on("error", fail);

  const open = (entry: ZipSource) => {
    const stream = readFrom
      ? new StoredObjectReader(readFrom, entry.file, onBytes)
      : new PooledFileReader(entry.file, pool, pushed, entry.size, onBytes);
    // A read error does not travel through archiver's internal pipe; it would hang, not fail.
    stream.on("error", fail);
    stream.read(0);
    opened.push(stream);
  };

  try {
    // The object is completed here, once archiver has handed over its last byte.
    archive.pipe(output, { end: Boolean(file) });
    sources.slice(0, FILES_AHEAD).forEach(open);
    for (const [index, entry] of sources.entries()) {
      signal.throwIfAborted();
      if (index > 0) opened.shift();
      const stream = opened[0]!;
      if (index + FILES_AHEAD < sources.length) open(sources[index + FILES_AHEAD]!);
      const appended = new Promise<void>((resolve) => archive.once("entry", () => resolve()));
      archive.append(stream, { name: entry.name, date: entry.date, store: true } as ZipEntryData);
      await Promise.race([appended, failed]);
    }
    const closed = new Promise<void>((resolve) =>
      file ? file.once("close", () => resolve()) : archive.once("end", () => resolve()),
    );
    void archive.finalize().catch(fail);
    await Promise.race([closed, failed]);
    if (!file) await Promise.race([(out as ObjectWriter).complete(), failed]);
    signal.throwIfAborted();
  } catch (err) {
    archive.abort();
    archive.unpipe(output);
    for (const stream of opened) stream.destroy();
    if (!file) {
      await (out as ObjectWriter).abort();
      throw err;
    }
    await closeQuietly(file);
    if (file.created) await fsp.rm(out as string, { force: true });
    throw err;
  } finally {
    signal.removeEventListener("abort", onAbort);
  }
}

/** Waits until the descriptor is released, so the file can be removed without a write landing after. */
function closeQuietly(output: Writable): Promise<void> {
  if (output.closed) return Promise.resolve();
  return new Promise((resolve) => {
    output.once("close", () => resolve());
    output.destroy();
  });
}

/** CRC-32 with Node's native zlib.crc32 instead of the JavaScript one compress-commons uses. */
class NativeCrc32Stream extends Transform {
  crc = 0;
  size = 0;

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback) {
    this.crc = zlib.crc32(chunk, this.crc);
    this.size += chunk.length;
    callback(null, chunk);
  }
}

/** Header fields shorter than this are gathered (a file name is at most a few hundred bytes). */
const FIELD_BYTES = 1024;
/** Gathered fields are handed on at this size at the latest. */
const GATHERED_BYTES = 64 * 1024;

/**
 * compress-commons writes every field of a ZIP header as a stream chunk of its own: about 35 a
 * photo (local header, data descriptor, central directory record), each a chunk object queued in
 * archiver's pipeline. Those of a 10,000-photo ZIP's central directory, written at once, held
 * some 70 MB. Here the engine's short writes outside an entry's data are gathered into one chunk,
 * handed on before any other write (a photo's bytes), at 64 kB, and before the end, so the bytes
 * and their order are unchanged; the engine's offset still counts every field as it is written,
 * since it reads that offset for the headers. Left alone, like useNativeCrc, if archiver's
 * internals move.
 */
function gatherHeaderWrites(archive: Archiver): void {
  const engine = engineOf<GatheringEngine>(archive);
  if (!engine || typeof engine.write !== "function" || typeof engine.offset !== "number") return;
  if (typeof engine._smartStream !== "function") return;
  // The stream's own write, below compress-commons' (which adds each chunk's length to `offset`).
  let proto = Object.getPrototypeOf(engine);
  while (proto && !Object.prototype.hasOwnProperty.call(proto, "getBytesWritten")) proto = Object.getPrototypeOf(proto);
  const streamWrite = proto && Object.getPrototypeOf(proto)?.write;
  if (typeof streamWrite !== "function") return;
  let fields: Buffer[] = [];
  let bytes = 0;
  const handOn = () => {
    if (fields.length === 0) return;
    const gathered = fields.length === 1 ? fields[0] : Buffer.concat(fields, bytes);
    fields = [];
    bytes = 0;
    streamWrite.call(engine, gathered);
  };
  // A photo's own bytes pass as they come, however short: a pool buffer copied into a gathered
  // chunk would never come back to the pool (pooled-io.ts).
  let inData = false;
  const smartStream = engine._smartStream;
  engine._smartStream = function (this: GatheringEngine, entry, callback) {
    const data = smartStream.call(this, entry, callback);
    inData = true;
    // Before the engine's own "end" handler, which writes the data descriptor.
    data.prependOnceListener("end", () => (inData = false));
    return data;
  };
  const write = engine.write;
  engine.write = function (this: GatheringEngine, chunk: Buffer | string, callback?: () => void) {
    // A plain ASCII file name comes as a string, which the stream would have encoded as UTF-8.
    const field = typeof chunk === "string" || Buffer.isBuffer(chunk);
    if (!inData && !callback && field && chunk.length < FIELD_BYTES) {
      this.offset += chunk.length;
      const fieldBytes = typeof chunk === "string" ? Buffer.from(chunk) : chunk;
      fields.push(fieldBytes);
      bytes += fieldBytes.length;
      if (bytes >= GATHERED_BYTES) handOn();
      return true;
    }
    handOn();
    return write.call(this, chunk, callback);
  };
  const end = engine.end;
  engine.end = function (this: GatheringEngine, ...args: unknown[]) {
    handOn();
    return end.apply(this, args);
  };
}

/** The zip-stream engine inside an archiver instance (compress-commons' ZipArchiveOutputStream), seen as `T`. */
function engineOf<T>(archive: Archiver): T | undefined {
  return (archive as unknown as { _module?: { engine?: T } })._module?.engine;
}

/** What gatherHeaderWrites uses of the engine. */
interface GatheringEngine {
  offset: number;
  _smartStream: ZipEngine["_smartStream"];
  write(chunk: Buffer | string, callback?: () => void): boolean;
  end(...args: unknown[]): unknown;
}

interface ZipEngineEntry {
  getMethod(): number;
  setCrc(crc: number): void;
  setSize(size: number): void;
  setCompressedSize(size: number): void;
}

interface ZipEngine extends NodeJS.WritableStream {
  _smartStream(
    entry: ZipEngineEntry,
    callback: (err: Error | null, entry: ZipEngineEntry) => void,
  ): NodeJS.ReadWriteStream;
  _afterAppend(entry: ZipEngineEntry): void;
}

/**
 * Replaces the CRC step of stored entries in this archive's zip-stream engine, mirroring
 * compress-commons' own `_smartStream` (CRC, sizes, then `_afterAppend`). If a future archiver
 * moves these internals, the engine is left alone and the JavaScript CRC is used: slower, same bytes.
 */
function useNativeCrc(archive: Archiver): void {
  const engine = engineOf<ZipEngine>(archive);
  if (!engine || typeof engine._smartStream !== "function" || typeof engine._afterAppend !== "function") return;
  const original = engine._smartStream;
  engine._smartStream = function (this: ZipEngine, entry, callback) {
    if (entry.getMethod() !== STORED) return original.call(this, entry, callback);
    const crc = new NativeCrc32Stream();
    let error: Error | null = null;
    crc.once("error", (err) => (error = err));
    crc.once("end", () => {
      entry.setCrc(crc.crc >>> 0);
      entry.setSize(crc.size);
      entry.setCompressedSize(crc.size);
      this._afterAppend(entry);
      callback(error, entry);
    });
    crc.pipe(this, { end: false });
    return crc;
  };
}
