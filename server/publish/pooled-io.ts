import fs from "node:fs";
import fsp, { type FileHandle } from "node:fs/promises";
import { Readable, Writable } from "node:stream";

/**
 * Read buffers handed back once their bytes are on disk. `fs.createReadStream` allocates a fresh
 * buffer per read, and collecting gigabytes of them cost about a third of a build's CPU time and
 * tens of MB of RSS. A buffer comes back only when the exact view the reader pushed is written,
 * so one that some stage copied or split is simply left to the garbage collector.
 */
export class BufferPool {
  private readonly free: Buffer[] = [];
  private readonly lent = new Map<ArrayBufferLike, Buffer>();
  /** Buffers allocated so far; stays small when buffers come back. */
  allocations = 0;

  constructor(
    readonly bufferSize: number,
    private readonly keep = 8,
  ) {}

  take(): Buffer {
    let buffer = this.free.pop();
    if (!buffer) {
      buffer = Buffer.allocUnsafeSlow(this.bufferSize);
      this.allocations++;
    }
    this.lent.set(buffer.buffer, buffer);
    return buffer;
  }

  /** Called with every chunk written; gives back pool buffers whose whole pushed view was written. */
  written(chunk: Buffer, pushedLength: (buffer: Buffer) => number | undefined): void {
    const buffer = this.lent.get(chunk.buffer);
    if (!buffer || chunk.byteOffset !== buffer.byteOffset || chunk.length !== pushedLength(buffer)) return;
    this.release(buffer);
  }

  release(buffer: Buffer): void {
    this.lent.delete(buffer.buffer);
    if (this.free.length < this.keep) this.free.push(buffer);
  }
}

/** How many bytes of each lent buffer were pushed, shared by the readers and the writer of one build. */
export class PushedLengths {
  private readonly lengths = new WeakMap<Buffer, number>();
  set = (buffer: Buffer, length: number) => this.lengths.set(buffer, length);
  get = (buffer: Buffer) => this.lengths.get(buffer);
}

const FLUSH_EVERY_BYTES = 64 * 1024 * 1024;

/**
 * Reads a whole file sequentially into pool buffers. Open errors carry the path, like fs streams.
 * Given the size the file should have, a short read that reaches it ends the stream without the
 * extra read that would only say "end of file" (a thread-pool round trip per file); a file that
 * has grown is still read to its real end.
 */
export class PooledFileReader extends Readable {
  private fd: number | undefined;
  private bytesRead = 0;

  constructor(
    private readonly file: string,
    private readonly pool: BufferPool,
    private readonly pushed: PushedLengths,
    private readonly expectedSize?: number,
    private readonly onBytes?: (bytes: number) => void,
  ) {
    super({ highWaterMark: pool.bufferSize });
  }

  // Plain descriptors and callbacks: a FileHandle's promises cost more per file, and a ZIP of
  // 10,000 photos opens, reads and closes 10,000 files.
  override _construct(callback: (err?: Error | null) => void): void {
    fs.open(this.file, "r", (err, fd) => {
      if (err) return callback(err);
      this.fd = fd;
      callback();
    });
  }

  override _read(): void {
    const buffer = this.pool.take();
    fs.read(this.fd!, buffer, 0, buffer.length, null, (err, bytesRead) => {
      if (err) return this.destroy(Object.assign(err, { path: this.file }));
      if (bytesRead === 0) {
        this.pool.release(buffer);
        this.push(null);
        return;
      }
      const chunk = bytesRead === buffer.length ? buffer : buffer.subarray(0, bytesRead);
      this.pushed.set(buffer, bytesRead);
      this.bytesRead += bytesRead;
      this.onBytes?.(bytesRead);
      this.push(chunk);
      if (bytesRead < buffer.length && this.bytesRead === this.expectedSize) this.push(null);
    });
  }

  override _destroy(err: Error | null, callback: (err?: Error | null) => void): void {
    const fd = this.fd;
    this.fd = undefined;
    if (fd === undefined) return callback(err);
    fs.close(fd, () => callback(err));
  }
}

/** Writes to a new file (`wx`), batching small header writes, and fsyncs before it reports "finish". */
export class PooledFileWriter extends Writable {
  private handle: FileHandle | undefined;
  /** True once this writer has created the file, so only then is removing it on failure ours to do. */
  created = false;
  private unflushed = 0;
  private flushing: Promise<void> | undefined;
  private flushError: Error | undefined;

  constructor(
    private readonly file: string,
    private readonly pool: BufferPool,
    private readonly pushed: PushedLengths,
  ) {
    super({ highWaterMark: pool.bufferSize });
  }

  override _construct(callback: (err?: Error | null) => void): void {
    fsp.open(this.file, "wx").then(
      (handle) => ((this.handle = handle), (this.created = true), callback()),
      (err) => callback(err),
    );
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: (err?: Error | null) => void): void {
    this._writev([{ chunk }], callback);
  }

  override _writev(chunks: Array<{ chunk: Buffer }>, callback: (err?: Error | null) => void): void {
    const buffers = chunks.map((c) => c.chunk);
    this.writeAll(buffers).then(
      () => {
        for (const chunk of buffers) {
          this.unflushed += chunk.length;
          this.pool.written(chunk, this.pushed.get);
        }
        this.startFlushIfDue();
        callback();
      },
      (err) => callback(Object.assign(err, { path: this.file })),
    );
  }

  override _final(callback: (err?: Error | null) => void): void {
    (this.flushing ?? Promise.resolve())
      .then(() => {
        if (this.flushError) throw this.flushError;
        return this.handle!.sync();
      })
      .then(
        () => callback(),
        (err) => callback(err),
      );
  }

  /**
   * The kernel starts writing dirty pages back only past a share of RAM (gigabytes here), so a
   * ZIP would otherwise reach the disk all at once in the final sync. Flushing as we go lets the
   * disk work while the build still reads and checksums; the final sync only has the tail left.
   */
  private startFlushIfDue(): void {
    if (this.unflushed < FLUSH_EVERY_BYTES || this.flushing || !this.handle) return;
    this.unflushed = 0;
    this.flushing = this.handle
      .datasync()
      .catch((err: Error) => {
        this.flushError ??= err;
      })
      .finally(() => {
        this.flushing = undefined;
      });
  }

  override _destroy(err: Error | null, callback: (err?: Error | null) => void): void {
    const handle = this.handle;
    this.handle = undefined;
    if (!handle) return callback(err);
    handle.close().then(
      () => callback(err),
      (closeErr) => callback(err ?? closeErr),
    );
  }

  /** writev may write less than asked (disk nearly full, signals); carry on from where it stopped. */
  private async writeAll(buffers: Buffer[]): Promise<void> {
    let pending = buffers;
    while (pending.length > 0) {
      const { bytesWritten } = await this.handle!.writev(pending);
      let skip = bytesWritten;
      const rest: Buffer[] = [];
      for (const buffer of pending) {
        if (skip >= buffer.length) skip -= buffer.length;
        else {
          rest.push(skip > 0 ? buffer.subarray(skip) : buffer);
          skip = 0;
        }
      }
      if (rest.length > 0 && bytesWritten === 0)
        throw Object.assign(new Error("Write made no progress"), { code: "EIO" });
      pending = rest;
    }
  }
}
