import crypto from "node:crypto";
import fs from "node:fs";
import fsp from "node:fs/promises";
import path from "node:path";
import { PassThrough, type Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ByteRange, ListedObject, ObjectStat, ObjectStore, ObjectWriter } from "./object-store";
import { StorageNotFoundError } from "./object-store";
import { makeFolder, PRIVATE_MODES, settleFile, type FileModes } from "./file-modes";
import { removeQuietly } from "./paths";

const missing = (err: unknown) => ["ENOENT", "ENOTDIR"].includes((err as NodeJS.ErrnoException).code ?? "");

/**
 * Objects as files under one folder, a key's `/` a sub-folder: exactly the layout UPLOADS_DIR and
 * PUBLISHED_DIR always had. A file appears under its name only once whole (written under a
 * temporary name, then renamed), in `tempDir` when given (inside the same file system, so the
 * rename is atomic) or as `<name>.part` beside it. Files and folders get `modes` (0600 and 0700
 * unless a group reads them), temp files and `tempDir` are always 0600 and 0700.
 */
export class DiskStore implements ObjectStore {
  readonly kind = "disk";

  constructor(
    private readonly root: string,
    private readonly tempDir?: string,
    private readonly modes: FileModes = PRIVATE_MODES,
  ) {}

  localFile(key: string): string {
    const full = path.resolve(this.root, key);
    if (!full.startsWith(this.root + path.sep)) throw new Error(`storage key escapes its folder: ${key}`);
    return full;
  }

  /** Files on this machine always go through Photodrop (or the proxy in front). */
  presignedDownload(): Promise<undefined> {
    return Promise.resolve(undefined);
  }

  private async tempFor(target: string): Promise<string> {
    if (!this.tempDir) return `${target}.part`;
    await makeFolder(this.tempDir);
    return path.join(this.tempDir, `${crypto.randomBytes(12).toString("hex")}${path.extname(target)}`);
  }

  /** A file about to be renamed into place: with a group, its bits and group, which the umask took. */
  private async settle(file: string): Promise<void> {
    if (this.modes.gid !== undefined) await settleFile(file, this.modes);
  }

  async put(key: string, body: Readable): Promise<void> {
    const target = this.localFile(key);
    await makeFolder(path.dirname(target), this.modes);
    const temp = await this.tempFor(target);
    try {
      await pipeline(body, fs.createWriteStream(temp, { flags: "wx", mode: PRIVATE_MODES.file }));
      await this.settle(temp);
      await fsp.rename(temp, target);
    } finally {
      await removeQuietly(temp);
    }
  }

  async moveFileIn(key: string, file: string): Promise<void> {
    const target = this.localFile(key);
    await makeFolder(path.dirname(target), this.modes);
    // Made by others (sharp, express-fileupload) under whatever umask the process has.
    await settleFile(file, this.modes);
    await fsp.rename(file, target);
  }

  async get(key: string, range?: ByteRange): Promise<Readable> {
    const file = this.localFile(key);
    const handle = await fsp.open(file, "r").catch((err: unknown) => {
      throw missing(err) ? new StorageNotFoundError(key) : err;
    });
    return handle.createReadStream(range ? { start: range.start, end: range.end } : {});
  }

  async stat(key: string): Promise<ObjectStat | undefined> {
    const stat = await fsp.stat(this.localFile(key)).catch((err: unknown) => {
      if (missing(err)) return undefined;
      throw err;
    });
    return stat?.isFile() ? { size: stat.size, mtime: stat.mtime } : undefined;
  }

  async remove(...keys: string[]): Promise<void> {
    await removeQuietly(...keys.map((key) => this.localFile(key)));
  }

  async removePrefix(prefix: string): Promise<void> {
    if (!prefix.endsWith("/")) throw new Error(`a prefix to remove names a folder: ${prefix}`);
    await removeQuietly(this.localFile(prefix.slice(0, -1)));
  }

  async *list(prefix: string): AsyncIterable<ListedObject> {
    // Only the folder the prefix names is walked, not every project's.
    const folder = prefix.includes("/") ? this.localFile(prefix.slice(0, prefix.lastIndexOf("/"))) : this.root;
    const entries = await fsp.readdir(folder, { recursive: true, withFileTypes: true }).catch(() => []);
    for (const entry of entries) {
      if (!entry.isFile()) continue;
      const key = path.relative(this.root, path.join(entry.parentPath, entry.name)).split(path.sep).join("/");
      if (!key.startsWith(prefix) || key.startsWith(".tmp/")) continue;
      const stat = await this.stat(key);
      if (stat) yield { key, ...stat };
    }
  }

  async rename(from: string, to: string): Promise<void> {
    await fsp.rename(this.localFile(from), this.localFile(to));
  }

  abortUnfinishedWriters(): Promise<number> {
    return Promise.resolve(0);
  }

  createWriter(key: string): ObjectWriter {
    const target = this.localFile(key);
    const temp = `${target}.part`;
    const stream = new PassThrough();
    const written = makeFolder(path.dirname(target), this.modes).then(() =>
      pipeline(stream, fs.createWriteStream(temp, { flags: "wx", mode: PRIVATE_MODES.file })),
    );
    written.catch(() => undefined);
    return {
      stream,
      complete: async () => {
        stream.end();
        await written;
        await this.settle(temp);
        await fsp.rename(temp, target);
      },
      abort: async () => {
        stream.destroy();
        await written.catch(() => undefined);
        await removeQuietly(temp);
      },
    };
  }
}
