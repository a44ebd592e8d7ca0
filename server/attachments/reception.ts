import crypto from "node:crypto";
import fs from "node:fs";
import fsp from "node:fs/promises";
import path from "node:path";
import { Transform, type Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { Logger } from "pino";
import { removeOrLog } from "../storage/paths";
import type { IncomingFile } from "./attachments.service";

export interface ReceivedFile extends IncomingFile {
  field: string;
}

/**
 * The files of one upload as they are written into a folder of its own. It knows every temp file
 * and its write stream, so discarding can close them all before the folder goes: removing it while
 * a file is still being opened would fail (ENOTEMPTY) or leave that file behind.
 */
export class Reception {
  /** In the order the parts arrived; size and checksum are final once `written()` resolved. */
  readonly files: ReceivedFile[] = [];
  readonly ready: Promise<void>;
  private readonly open = new Set<fs.WriteStream>();
  private readonly closed: Array<Promise<void>> = [];
  private readonly writes: Array<Promise<void>> = [];
  private discarded?: Promise<void>;

  constructor(
    readonly dir: string,
    private readonly logger: Logger,
  ) {
    this.ready = fsp.mkdir(dir, { recursive: true }).then(() => undefined);
  }

  /** Writes one part into its own temp file; resolves once it is all on disk. */
  receive(field: string, originalName: string, source: Readable): Promise<void> {
    if (this.discarded) {
      source.resume();
      return Promise.resolve();
    }
    const file: ReceivedFile = { field, tempFile: path.join(this.dir, `part-${this.files.length}`), originalName, size: 0, checksum: "" };
    this.files.push(file);
    const out = fs.createWriteStream(file.tempFile, { flags: "wx" });
    this.open.add(out);
    this.closed.push(new Promise((resolve) => out.once("close", () => resolve())));
    const hash = crypto.createHash("sha256");
    const measure = new Transform({
      transform(chunk: Buffer, _encoding, callback) {
        hash.update(chunk);
        file.size += chunk.length;
        callback(null, chunk);
      },
    });
    const write = pipeline(source, measure, out).then(() => {
      file.checksum = hash.digest("hex");
    });
    const settled = write.finally(() => this.open.delete(out));
    this.writes.push(settled);
    return settled;
  }

  /** Resolves once every part received so far is on disk; rejects if one could not be written. */
  async written(): Promise<void> {
    await Promise.all(this.writes);
  }

  /** Stops every write, waits until each temp file is closed, then removes the folder. Never rejects. */
  discard(): Promise<void> {
    this.discarded ??= (async () => {
      for (const out of this.open) out.destroy();
      await Promise.all([this.ready.catch(() => undefined), ...this.closed]);
      await removeOrLog(this.logger, "upload temp folder", this.dir);
    })();
    return this.discarded;
  }
}
