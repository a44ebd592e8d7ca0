import fs from "node:fs";
import fsp, { type FileHandle } from "node:fs/promises";
import { promisify } from "node:util";
import zlib from "node:zlib";
import { centralHeader, dataDescriptor, dosTime, endRecords, localHeader, type ZipEntry } from "./zip-format";

/** One file to store in the archive. */
export interface ZipSource {
  file: string;
  name: string;
  /** As recorded: a read that comes back short once this much is read is the end of the file. */
  size: number;
  date: Date;
}

export interface WriteZipOptions {
  signal: AbortSignal;
  /** Called with the number of bytes just read from a source file. */
  onBytes?: (bytes: number) => void;
  /** Archive size from which every entry and the end carry ZIP64 records (tests lower it). */
  zip64Threshold?: number;
}

/** Photos are already compressed; large reads are what makes storing fast (see stack-notes). */
const READ_BYTES = 1024 * 1024;
const FLUSH_EVERY_BYTES = 64 * 1024 * 1024;
const ZIP32_LIMIT = 0xffffffff;

const open = promisify(fs.open);
const read = promisify(fs.read);

/** Estimated from the recorded sizes: near 4 GiB, ZIP64 records are written throughout. */
function estimatedArchiveSize(sources: ZipSource[]): number {
  return sources.reduce((sum, s) => sum + s.size + 128 + 2 * Buffer.byteLength(s.name), 22);
}

/**
 * The work, or the signal's reason as soon as it aborts: a read that never returns (a stalled
 * network share) does not hold the build. What the abandoned work ends with is ignored.
 */
function unlessAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  work.catch(() => undefined);
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
}

/** An error of a source file carries its path, so the build can say which photo it was. */
const fromSource = (source: ZipSource) => (err: NodeJS.ErrnoException) => {
  throw Object.assign(err, { path: source.file });
};

/** A file opened and read ahead of its turn. */
interface ReadAhead {
  source: ZipSource;
  fd: number;
  buffer: Buffer;
  bytesRead: number;
}

/**
 * Read buffers of a build: files opened and read ahead at once (each file op is a round trip to the
 * thread pool, and they overlap), and small files held until written.
 */
const READ_AHEAD = 12;
/** Small files' bytes gathered before they are written in one call. */
const GATHER_BYTES = 4 * READ_BYTES;

/**
 * Writes a store-mode ZIP of the sources to `outFile` (which must not exist) and fsyncs it. The
 * next few files are opened and read while one is stored; a file that one read holds whole is
 * stored with its CRC and size in its header and written together with its neighbours, a larger
 * one is streamed in 1 MiB reads (each overlapping the last write) and followed by a data
 * descriptor. On any failure or abort the partial file is removed and the error (or the signal's
 * reason) is thrown.
 */
export async function writeZip(sources: ZipSource[], outFile: string, options: WriteZipOptions): Promise<void> {
  const { signal } = options;
  signal.throwIfAborted();
  const out = await fsp.open(outFile, "wx");
  const forceZip64 = estimatedArchiveSize(sources) >= (options.zip64Threshold ?? ZIP32_LIMIT - 64 * 1024 * 1024);
  const zip = new ZipOutput(out, outFile, forceZip64, signal, options.onBytes);
  const free: Buffer[] = Array.from({ length: READ_AHEAD }, () => Buffer.allocUnsafeSlow(READ_BYTES));
  const ahead: Array<Promise<ReadAhead>> = [];
  let started = 0;
  const readAhead = () => {
    while (started < sources.length && free.length > 0) {
      const source = sources[started++];
      const buffer = free.pop()!;
      const work = open(source.file, "r")
        .then((fd) =>
          read(fd, buffer, 0, buffer.length, null).then(
            ({ bytesRead }) => ({ source, fd, buffer, bytesRead }),
            (err: Error) => (fs.close(fd, () => undefined), Promise.reject(err)),
          ),
        )
        .catch(fromSource(source));
      work.catch(() => undefined);
      ahead.push(work);
    }
  };
  /** Written small files' buffers go back to reading while the next ones are stored. */
  const writeGathered = () =>
    zip.write().then((written) => {
      free.push(...written);
      readAhead();
    });
  let writing: Promise<void> = Promise.resolve();
  try {
    for (let i = 0; i < sources.length; i++) {
      readAhead();
      // Every buffer is held by bytes being written: the first to come back reads again.
      while (ahead.length === 0) await unlessAborted(writing, signal);
      const file = await unlessAborted(ahead.shift()!, signal);
      try {
        free.push(...(await zip.store(file)));
      } finally {
        fs.close(file.fd, () => undefined);
      }
      if (zip.gathered() >= GATHER_BYTES || zip.holding() >= READ_AHEAD / 2) {
        writing = writeGathered();
        writing.catch(() => undefined);
      }
    }
    await unlessAborted(writing, signal);
    await zip.finish();
  } catch (err) {
    for (const work of ahead)
      void work.then(
        (file) => fs.close(file.fd, () => undefined),
        () => undefined,
      );
    await out.close().catch(() => undefined);
    await fsp.rm(outFile, { force: true });
    throw err;
  }
  await out.close();
}

/** The archive being written: its offset, the entries for the central directory, writes gathered and flushed. */
class ZipOutput {
  private offset = 0;
  private readonly entries: ZipEntry[] = [];
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  /** Read buffers whose bytes are pending: free again once written. */
  private held: Buffer[] = [];
  private readonly spare: Buffer = Buffer.allocUnsafeSlow(READ_BYTES);
  private unflushed = 0;
  /** Writes run one after the other, in the order asked. */
  private lastWrite: Promise<unknown> = Promise.resolve();
  private flushing: Promise<void> | undefined;
  private flushError: Error | undefined;

  constructor(
    private readonly out: FileHandle,
    private readonly outFile: string,
    private readonly forceZip64: boolean,
    private readonly signal: AbortSignal,
    private readonly onBytes?: (bytes: number) => void,
  ) {}

  gathered(): number {
    return this.pendingBytes;
  }

  /** Read buffers held by bytes not yet asked to be written. */
  holding(): number {
    return this.held.length;
  }

  /**
   * Stores a file whose first read is done. A file that read holds whole stays pending (its
   * buffer held until written); a larger one is written through. Answers the read buffers freed.
   */
  async store({ source, fd, buffer, bytesRead }: ReadAhead): Promise<Buffer[]> {
    this.onBytes?.(bytesRead);
    const data = buffer.subarray(0, bytesRead);
    const entry: ZipEntry = {
      name: Buffer.from(source.name, "utf8"),
      dosTime: dosTime(source.date),
      crc: zlib.crc32(data) >>> 0,
      size: bytesRead,
      offset: this.offset,
      descriptor: false,
      zip64: this.forceZip64,
    };
    this.entries.push(entry);
    if (bytesRead < buffer.length && bytesRead >= source.size) {
      this.held.push(buffer);
      this.append(localHeader(entry), data);
      return [];
    }
    // More than one read holds: its header first, the rest streamed, then its CRC and size.
    entry.descriptor = true;
    entry.zip64 ||= source.size >= ZIP32_LIMIT;
    this.append(localHeader(entry), data);
    const freed: Buffer[] = [];
    let writing = this.write();
    // Each read goes into the buffer not being written: reading and writing overlap.
    const buffers = [this.spare, buffer];
    for (let turn = 0, done = bytesRead === 0; !done; turn = 1 - turn) {
      const into = buffers[turn];
      const [{ bytesRead: n }, written] = await Promise.all([
        unlessAborted(read(fd, into, 0, into.length, null).catch(fromSource(source)), this.signal),
        writing,
      ]);
      freed.push(...written);
      this.onBytes?.(n);
      const chunk = into.subarray(0, n);
      entry.crc = zlib.crc32(chunk, entry.crc) >>> 0;
      entry.size += n;
      done = n === 0 || (n < into.length && entry.size >= source.size);
      this.append(chunk);
      writing = this.write();
    }
    freed.push(...(await writing), buffer);
    // Written with whatever comes next.
    this.append(dataDescriptor(entry));
    return freed;
  }

  /** Writes the central directory and the end records, then makes the whole file durable. */
  async finish(): Promise<void> {
    const start = this.offset;
    for (const entry of this.entries) {
      this.append(centralHeader(entry, this.forceZip64));
      if (this.pending.length >= 1024) await this.write();
    }
    this.append(endRecords(this.entries.length, start, this.offset - start, this.forceZip64));
    await this.write();
    await this.flushing;
    if (this.flushError) throw this.flushError;
    await unlessAborted(this.out.sync().catch(this.fromOutput), this.signal);
  }

  private append(...buffers: Buffer[]): void {
    for (const buffer of buffers) {
      if (buffer.length === 0) continue;
      this.pending.push(buffer);
      this.pendingBytes += buffer.length;
      this.offset += buffer.length;
    }
  }

  private readonly fromOutput = (err: NodeJS.ErrnoException) => {
    throw Object.assign(err, { path: this.outFile });
  };

  /**
   * Everything pending, after whatever was asked to be written before it, in as few calls as the
   * system allows (writev may write less than asked); answers the read buffers whose bytes are now
   * written. Fails as the write before it failed.
   */
  write(): Promise<Buffer[]> {
    const pending = this.pending;
    const written = this.held;
    this.pending = [];
    this.pendingBytes = 0;
    this.held = [];
    const done = this.lastWrite.then(() => this.writeAll(pending)).then(() => written);
    this.lastWrite = done;
    done.catch(() => undefined);
    return done;
  }

  private async writeAll(pending: Buffer[]): Promise<void> {
    while (pending.length > 0) {
      const { bytesWritten } = await unlessAborted(this.out.writev(pending).catch(this.fromOutput), this.signal);
      if (bytesWritten === 0)
        throw Object.assign(new Error("Write made no progress"), { code: "EIO", path: this.outFile });
      this.unflushed += bytesWritten;
      let skip = bytesWritten;
      const rest: Buffer[] = [];
      for (const buffer of pending) {
        if (skip >= buffer.length) skip -= buffer.length;
        else {
          rest.push(skip > 0 ? buffer.subarray(skip) : buffer);
          skip = 0;
        }
      }
      pending = rest;
    }
    this.startFlushIfDue();
  }

  /**
   * The kernel starts writing dirty pages back only past a share of RAM (gigabytes here), so a
   * ZIP would otherwise reach the disk all at once in the final sync. Flushing as we go lets the
   * disk work while the build still reads and checksums; the final sync only has the tail left.
   */
  private startFlushIfDue(): void {
    if (this.unflushed < FLUSH_EVERY_BYTES || this.flushing) return;
    this.unflushed = 0;
    this.flushing = this.out
      .datasync()
      .catch((err: Error) => {
        this.flushError ??= Object.assign(err, { path: this.outFile });
      })
      .finally(() => {
        this.flushing = undefined;
      });
  }
}
