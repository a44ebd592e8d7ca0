/** Arrangements shared by the publish and events tests: rows inserted directly, real files on disk. */
import { execFile, execFileSync } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import zlib from "node:zlib";
import sharp from "sharp";
import yauzl from "yauzl";
import type { AppContext } from "../context";
import { uploadPath } from "../storage/paths";
import type { PublishEvent } from "../events/bus";
import { insertAttachmentRow, insertProjectRow } from "../test/rows";
import { writeStored } from "../test/stored-files";
export { until } from "../test/wait";

/**
 * A real JPEG of noise (so it does not shrink to nothing) stored the way uploads are, in the
 * uploads store (a file under UPLOADS_DIR, or an object under `npm run test:s3`).
 */
export async function addPhoto(
  ctx: AppContext,
  projectId: number,
  originalName: string,
  side = 64,
): Promise<{ file: string; key: string; bytes: Buffer }> {
  const pixels = crypto.randomBytes(side * side * 3);
  const bytes = await sharp(pixels, { raw: { width: side, height: side, channels: 3 } })
    .jpeg({ quality: 90 })
    .toBuffer();
  const storageKey = `${projectId}/${crypto.randomBytes(12).toString("base64url")}.jpg`;
  await writeStored(ctx, storageKey, bytes);
  await insertAttachmentRow(ctx, projectId, {
    originalName,
    storageKey,
    size: bytes.length,
    checksum: crypto.createHash("sha256").update(bytes).digest("hex"),
  });
  return { file: uploadPath(ctx.config, storageKey), key: storageKey, bytes };
}

/**
 * An attachment whose file is a named pipe: the build reads it only as fast as the test feeds
 * it, so "still building" is a state the test controls instead of a race against the clock.
 */
export async function addSlowAttachment(ctx: AppContext, projectId: number, originalName: string, size: number) {
  const storageKey = `${projectId}/${crypto.randomBytes(12).toString("base64url")}.jpg`;
  const file = uploadPath(ctx.config, storageKey);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  execFileSync("mkfifo", [file]);
  const content = crypto.randomBytes(size);
  await insertAttachmentRow(ctx, projectId, {
    originalName,
    storageKey,
    size,
    checksum: crypto.createHash("sha256").update(content).digest("hex"),
  });
  let writer: fs.WriteStream | undefined;
  let offset = 0;
  const open = () => {
    writer ??= fs.createWriteStream(file).on("error", () => {});
    return writer;
  };
  return {
    content,
    /** Writes the next `bytes` bytes of the content. */
    feed(bytes: number): Promise<void> {
      const chunk = content.subarray(offset, offset + bytes);
      offset += chunk.length;
      return new Promise((resolve) => open().write(chunk, () => resolve()));
    },
    /** Writes what is left and closes the pipe. */
    finish(): Promise<void> {
      const rest = content.subarray(offset);
      offset = content.length;
      return new Promise((resolve) => open().end(rest, () => resolve()));
    },
    /** Lets go of the pipe whatever state the build is in. */
    release(): void {
      open().destroy();
    },
    /**
     * Writes what is left and closes the pipe if some build has it open for reading, or opens it
     * within `waitMs`; answers whether one did. Unlike `finish`, never leaves a thread waiting
     * for a reader that will not come.
     */
    async finishIfRead(waitMs = 0): Promise<boolean> {
      const deadline = Date.now() + waitMs;
      let fd: number | undefined;
      while (fd === undefined) {
        try {
          fd = fs.openSync(file, fs.constants.O_WRONLY | fs.constants.O_NONBLOCK);
        } catch (err) {
          if ((err as NodeJS.ErrnoException).code !== "ENXIO" || Date.now() >= deadline) return false;
          await new Promise((r) => setTimeout(r, 20));
        }
      }
      try {
        await writeNonBlocking(fd, content.subarray(offset));
        offset = content.length;
      } finally {
        fs.closeSync(fd);
      }
      return true;
    },
  };
}

/** Writes all of `bytes` to a non-blocking pipe, waiting while it is full; stops if the reader has gone. */
async function writeNonBlocking(fd: number, bytes: Buffer): Promise<void> {
  let written = 0;
  while (written < bytes.length) {
    try {
      written += fs.writeSync(fd, bytes, written);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === "EPIPE") return;
      if (code !== "EAGAIN") throw err;
      await new Promise((r) => setTimeout(r, 5));
    }
  }
}

/** Publish events as they happen in-process, with a way to wait for one. */
export function recordPublishEvents(ctx: AppContext, projectId?: number) {
  const events: PublishEvent[] = [];
  const waiters: Array<{ test: (e: PublishEvent) => boolean; resolve: (e: PublishEvent) => void }> = [];
  const stop = ctx.events.onPublishEvent((event) => {
    if (projectId !== undefined && event.projectId !== projectId) return;
    events.push(event);
    for (const w of [...waiters]) {
      if (!w.test(event)) continue;
      waiters.splice(waiters.indexOf(w), 1);
      w.resolve(event);
    }
  });
  return {
    events,
    stop,
    next(type: PublishEvent["type"], timeoutMs = 15_000): Promise<PublishEvent> {
      const seen = events.find((e) => e.type === type);
      if (seen) return Promise.resolve(seen);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no ${type} within ${timeoutMs} ms`)), timeoutMs);
        waiters.push({ test: (e) => e.type === type, resolve: (e) => (clearTimeout(timer), resolve(e)) });
      });
    },
  };
}

export async function projectRow(ctx: AppContext, id: number) {
  return ctx.db("projects").where({ id }).first();
}

export function publishedFiles(ctx: AppContext): string[] {
  return fs.readdirSync(ctx.config.publishedDir).sort();
}

export interface ZipEntryInfo {
  name: string;
  size: number;
  crc32: number;
  content: Buffer;
}

/** Every entry of a ZIP as yauzl reads it, with its content (yauzl checks sizes while reading). */
export async function readZip(file: string): Promise<ZipEntryInfo[]> {
  const zip = await new Promise<yauzl.ZipFile>((resolve, reject) =>
    yauzl.open(file, { lazyEntries: true }, (err, z) => (err ? reject(err) : resolve(z))),
  );
  const entries: ZipEntryInfo[] = [];
  await new Promise<void>((resolve, reject) => {
    zip.on("error", reject);
    zip.on("end", () => resolve());
    zip.on("entry", (entry: yauzl.Entry) => {
      zip.openReadStream(entry, (err, stream) => {
        if (err) return reject(err);
        const chunks: Buffer[] = [];
        stream.on("data", (c: Buffer) => chunks.push(c));
        stream.on("error", reject);
        stream.on("end", () => {
          entries.push({
            name: entry.fileName,
            size: entry.uncompressedSize,
            crc32: entry.crc32,
            content: Buffer.concat(chunks),
          });
          zip.readEntry();
        });
      });
    });
    zip.readEntry();
  });
  zip.close();
  return entries;
}

export const crc32 = (bytes: Buffer) => zlib.crc32(bytes) >>> 0;

/** `unzip -t`: Info-ZIP's own integrity check of every entry's CRC. */
export async function unzipTest(file: string): Promise<string> {
  const { stdout } = await promisify(execFile)("unzip", ["-t", file]);
  return stdout;
}

/** A project another process claimed and began to build, its lease running out at `leaseExpiresAt`, its partial file on disk. */
export async function buildOfAnotherProcess(
  ctx: AppContext,
  leaseExpiresAt: Date,
  letter: string,
  opts: { webSize?: boolean } = {},
): Promise<number> {
  const id = await insertProjectRow(ctx, { name: `Theirs ${letter}` });
  await addPhoto(ctx, id, "one.jpg");
  const zip = `${letter.repeat(22)}.zip`;
  await ctx
    .db("projects")
    .where({ id })
    .update({
      publish_status: "publishing",
      publish_build_id: `their-build-${letter}`,
      publish_lease_expires_at: leaseExpiresAt.toISOString(),
      publish_file: zip,
    });
  fs.writeFileSync(path.join(ctx.config.publishedDir, `${zip}.part`), "partial");
  // With web size, it had written the originals' ZIP and begun the previews'.
  if (opts.webSize) {
    fs.renameSync(path.join(ctx.config.publishedDir, `${zip}.part`), path.join(ctx.config.publishedDir, zip));
    fs.writeFileSync(path.join(ctx.config.publishedDir, `${letter.repeat(22)}-web.zip.part`), "partial");
  }
  return id;
}
