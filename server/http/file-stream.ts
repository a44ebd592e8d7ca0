import fs from "node:fs";
import type { ServerResponse } from "node:http";

/**
 * Reads of 512 KiB: serving a 5 MB photo in 64 kB reads cost a plain Node server a third of its
 * rate, and 1 MiB reads were no faster than these but held twice the memory (bench/README.md before 837a6a9, "Delivery").
 */
const READ_CHUNK = 512 * 1024;
/**
 * Idle read buffers kept for the next response: as many as the busiest benched load has
 * connections, so that it allocates none. More in use at once are allocated and left to the GC,
 * which frees them late.
 */
const KEEP_IDLE = 32;
const idle: Buffer[] = [];

/** A buffer comes back only once the socket has written it, so no response ever sends another's bytes. */
const take = (): Buffer => idle.pop() ?? Buffer.allocUnsafeSlow(READ_CHUNK);
const giveBack = (buffer: Buffer) => {
  if (idle.length < KEEP_IDLE) idle.push(buffer);
};

export interface OpenFile {
  fd: number;
  size: number;
  mtime: Date;
}

/** Opens a file for reading and reads its size; rejects as `fs` does (ENOENT...). */
export function openFile(file: string): Promise<OpenFile> {
  return new Promise((resolve, reject) => {
    fs.open(file, "r", (openErr, fd) => {
      if (openErr) return reject(openErr);
      fs.fstat(fd, (statErr, stat) => {
        if (statErr) return fs.close(fd, () => reject(statErr));
        if (!stat.isFile())
          return fs.close(fd, () => reject(Object.assign(new Error("not a file"), { code: "ENOENT" })));
        resolve({ fd, size: stat.size, mtime: stat.mtime });
      });
    });
  });
}

export const closeFile = (file: OpenFile) => fs.close(file.fd, () => undefined);

/**
 * Writes bytes [start, end] of an open file to a response whose head is set, one read at a time
 * (the next read starts once the socket has taken the last), then ends it; closes the file when done
 * or when the client goes away. A read error or a file shorter than its size cuts the response off.
 */
export function streamFile(res: ServerResponse, file: OpenFile, start: number, end: number): void {
  let position = start;
  let closed = false;
  const finish = () => {
    if (closed) return;
    closed = true;
    res.off("close", finish);
    closeFile(file);
  };
  res.once("close", finish);

  const next = () => {
    if (closed || res.destroyed) return finish();
    const buffer = take();
    const length = Math.min(buffer.length, end - position + 1);
    fs.read(file.fd, buffer, 0, length, position, (err, bytesRead) => {
      if (closed) return giveBack(buffer);
      if (err || bytesRead === 0) {
        giveBack(buffer);
        res.destroy(err ?? undefined);
        return finish();
      }
      position += bytesRead;
      const chunk = bytesRead === buffer.length ? buffer : buffer.subarray(0, bytesRead);
      const written = () => giveBack(buffer);
      if (position > end) {
        res.end(chunk, written);
        finish();
      } else if (res.write(chunk, written)) next();
      else res.once("drain", next);
    });
  };
  next();
}
