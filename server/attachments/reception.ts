import fs from "node:fs";
import type { Logger } from "pino";
import { makeFolderSync } from "../storage/file-modes";
import { removeOrLog } from "../storage/paths";

/**
 * When a discarded receive folder is removed once more. express-fileupload opens each temp file
 * asynchronously and, on an abort, unlinks a file before it may have been opened, so a file can
 * appear after a removal: by the first later removal every write stream has settled; the last one
 * comes after the upload timeout, when the library has given up on every part.
 */
export function laterRemovalsMs(uploadTimeoutMs: number): number[] {
  return [1_000, 3_000, uploadTimeoutMs + 1_000];
}

/** The folder of its own that one request's uploaded files are written into. */
export class ReceiveFolder {
  private discarded = false;
  private made = false;

  constructor(
    readonly dir: string,
    private readonly logger: Logger,
    private readonly uploadTimeoutMs: number,
  ) {}

  /** Makes the folder (0700, and UPLOADS_DIR/.tmp if missing) before its first file; once. */
  make(): void {
    if (this.made || this.discarded) return;
    this.made = true;
    try {
      makeFolderSync(this.dir);
    } catch {
      // The library tries again and answers the failure (a full disk) as it always did.
    }
  }

  /** Removes the folder and whatever is in it. Never rejects. */
  remove(): Promise<void> {
    return removeOrLog(this.logger, "upload temp folder", this.dir);
  }

  /** Removes the folder now, before an answer must leave; a failure is logged. Never throws. */
  removeNow(): void {
    try {
      fs.rmSync(this.dir, { force: true, recursive: true, maxRetries: 3, retryDelay: 20 });
    } catch (err) {
      this.logger.warn({ err, file: this.dir }, "could not remove upload temp folder");
    }
  }

  /**
   * Removes the folder of an upload that will not be handed over, and again later (timers that keep
   * no process alive), since the library may still write into it. Never rejects.
   */
  discard(): Promise<void> {
    if (!this.discarded) {
      this.discarded = true;
      for (const delay of laterRemovalsMs(this.uploadTimeoutMs)) setTimeout(() => void this.remove(), delay).unref();
    }
    return this.remove();
  }
}
