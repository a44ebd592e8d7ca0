import { RecentlyUsed } from "./recently-used";

/** A thumbnail larger than this share of the cache is read each time rather than pushing out many others. */
const LARGEST_SHARE = 1 / 16;

/**
 * Thumbnails by storage key, in memory, at most `maxBytes` of them, least recently used out first.
 * Stored files are never rewritten (a new thumbnail gets a new name), so an entry never goes stale;
 * whether a client may see it is decided before it is asked for. Reads of one thumbnail under way
 * are shared.
 */
export class ThumbnailCache {
  private readonly byKey = new RecentlyUsed<string, Buffer>();
  private readonly reading = new Map<string, Promise<Buffer>>();
  private bytes = 0;

  constructor(
    private readonly maxBytes: number,
    private readonly load: (key: string) => Promise<Buffer>,
  ) {}

  /** The thumbnail's bytes if they are in memory. */
  peek(key: string): Buffer | undefined {
    return this.byKey.use(key);
  }

  /** The thumbnail's bytes, from memory or read (and kept) now; rejects as `load` does. */
  read(key: string): Promise<Buffer> | Buffer {
    const kept = this.peek(key);
    if (kept) return kept;
    let pending = this.reading.get(key);
    if (!pending) {
      pending = this.load(key).finally(() => this.reading.delete(key));
      this.reading.set(key, pending);
      void pending.then(
        (data) => this.keep(key, data),
        () => undefined,
      );
    }
    return pending;
  }

  private keep(key: string, data: Buffer): void {
    if (data.length > this.maxBytes * LARGEST_SHARE || this.byKey.get(key)) return;
    this.byKey.set(key, data);
    this.bytes += data.length;
    while (this.bytes > this.maxBytes) {
      const [oldest, bytes] = this.byKey.leastRecentlyUsed()!;
      this.byKey.delete(oldest);
      this.bytes -= bytes.length;
    }
  }
}
