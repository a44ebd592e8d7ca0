import { Readable } from "node:stream";
import type { ObjectStore } from "../storage/object-store";

/** Bytes of a ZIP source asked from object storage at a time (one request's buffer, not a range). */
const HIGH_WATER_MARK = 1024 * 1024;

/**
 * One photo read from object storage for the ZIP, opened when the stream is constructed (so the
 * files read ahead overlap their first bytes' round trip with the writing), counted by `onBytes`.
 * Errors carry the key as `path`, as PooledFileReader's carry the file, so a failure names the photo.
 */
export class StoredObjectReader extends Readable {
  private body: Readable | undefined;

  constructor(
    private readonly store: ObjectStore,
    private readonly key: string,
    private readonly onBytes?: (bytes: number) => void,
  ) {
    super({ highWaterMark: HIGH_WATER_MARK });
  }

  override _construct(callback: (err?: Error | null) => void): void {
    this.store.get(this.key).then(
      (body) => {
        this.body = body;
        body.pause();
        body.on("data", (chunk: Buffer) => {
          this.onBytes?.(chunk.length);
          if (!this.push(chunk)) body.pause();
        });
        body.once("end", () => this.push(null));
        body.once("error", (err: Error) => this.destroy(this.withKey(err)));
        callback();
      },
      (err: Error) => callback(this.withKey(err)),
    );
  }

  override _read(): void {
    this.body?.resume();
  }

  override _destroy(err: Error | null, callback: (err?: Error | null) => void): void {
    this.body?.destroy();
    this.body = undefined;
    callback(err);
  }

  private withKey(err: Error): Error {
    return Object.assign(err, { path: this.key });
  }
}
