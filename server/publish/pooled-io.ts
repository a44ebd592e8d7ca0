import fs from "node:fs";
import { Readable, Writable } from "node:stream";
import { PRIVATE_MODES } from "../storage/file-modes";

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
  private readonly inFlight = new InFlight();
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
    this.inFlight.start();
    fs.read(this.fd!, buffer, 0, buffer.length, null, (err, bytesRead) => {
      this.inFlight.end();
      if (this.destroyed) return this.pool.release(buffer);
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
    // Closing a descriptor only read from does not wait for the disk: done here, it spares the
    // thread-pool round trip a file (about 10 µs of the main thread each, bench/README.md before 837a6a9, Publish).
    this.inFlight.whenIdle(() => {
      try {
        fs.closeSync(fd);
      } catch (closeErr) {
        return callback(err ?? (closeErr as Error));
      }
      callback(err);
    });
  }
}

/**
 * Operations running on a descriptor. It is closed only once they have ended: its number, reused
 * by the next file opened, would otherwise be read or written under them.
 */
class InFlight {
  private running = 0;
  private waiting: Array<() => void> = [];

  start(): void {
    this.running++;
  }

  end(): void {
    if (--this.running === 0) for (const then of this.waiting.splice(0)) then();
  }

  whenIdle(then: () => void): void {
    if (this.running === 0) then();
    else this.waiting.push(then);
  }
}

/**
 * Writes to a new file (`wx`), batching small header writes, and fsyncs before it reports "finish".
 * A plain descriptor and callbacks, like the reader: a 10,000-photo ZIP is some 20,000 writes.
 */
export class PooledFileWriter extends Writable {
  private fd: number | undefined;
  private readonly inFlight = new InFlight();
  /** True once this writer has created the file, so only then is removing it on failure ours to do. */
  created = false;
  private unflushed = 0;
  private flushing = false;
  private flushError: Error | undefined;

  constructor(
    private readonly file: string,
    private readonly pool: BufferPool,
    private readonly pushed: PushedLengths,
  ) {
    super({ highWaterMark: pool.bufferSize });
  }

  override _construct(callback: (err?: Error | null) => void): void {
    // A ZIP being built is its builder's only; publish-job gives it the data folder's mode before it is renamed.
    fs.open(this.file, "wx", PRIVATE_MODES.file, (err, fd) => {
      if (err) return callback(err);
      this.fd = fd;
      this.created = true;
      callback();
    });
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: (err?: Error | null) => void): void {
    this._writev([{ chunk }], callback);
  }

  override _writev(chunks: Array<{ chunk: Buffer }>, callback: (err?: Error | null) => void): void {
    const buffers = chunks.map((c) => c.chunk);
    this.writeAll(buffers, (err) => {
      if (err) return callback(Object.assign(err, { path: this.file }));
      for (const chunk of buffers) {
        this.unflushed += chunk.length;
        this.pool.written(chunk, this.pushed.get);
      }
      this.startFlushIfDue();
      callback();
    });
  }

  override _final(callback: (err?: Error | null) => void): void {
    // After a flush still running: every write has ended by now.
    this.inFlight.whenIdle(() => {
      if (this.flushError) return callback(this.flushError);
      if (this.fd === undefined) return callback(closedError());
      this.inFlight.start();
      fs.fsync(this.fd, (err) => {
        this.inFlight.end();
        callback(err);
      });
    });
  }

  /**
   * The kernel starts writing dirty pages back only past a share of RAM (gigabytes here), so a
   * ZIP would otherwise reach the disk all at once in the final sync. Flushing as we go lets the
   * disk work while the build still reads and checksums; the final sync only has the tail left.
   */
  private startFlushIfDue(): void {
    if (this.unflushed < FLUSH_EVERY_BYTES || this.flushing || this.fd === undefined) return;
    this.unflushed = 0;
    this.flushing = true;
    this.inFlight.start();
    fs.fdatasync(this.fd, (err) => {
      if (err) this.flushError ??= err;
      this.flushing = false;
      this.inFlight.end();
    });
  }

  override _destroy(err: Error | null, callback: (err?: Error | null) => void): void {
    const fd = this.fd;
    this.fd = undefined;
    if (fd === undefined) return callback(err);
    this.inFlight.whenIdle(() => fs.close(fd, (closeErr) => callback(err ?? closeErr)));
  }

  /** writev may write less than asked (disk nearly full, signals); carry on from where it stopped. */
  private writeAll(buffers: Buffer[], callback: (err?: Error) => void): void {
    if (this.fd === undefined) return callback(closedError());
    this.inFlight.start();
    fs.writev(this.fd, buffers, (err, bytesWritten) => {
      this.inFlight.end();
      if (err) return callback(err);
      let skip = bytesWritten;
      const rest: Buffer[] = [];
      for (const buffer of buffers) {
        if (skip >= buffer.length) skip -= buffer.length;
        else {
          rest.push(skip > 0 ? buffer.subarray(skip) : buffer);
          skip = 0;
        }
      }
      if (rest.length === 0) return callback();
      if (bytesWritten === 0) return callback(Object.assign(new Error("Write made no progress"), { code: "EIO" }));
      this.writeAll(rest, callback);
    });
  }
}

const closedError = () => Object.assign(new Error("The file was closed"), { code: "EBADF" });
