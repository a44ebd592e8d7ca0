import { RENDITIONS, type Rendition } from "../storage/image-files";

/**
 * Renders one attachment's rendition and answers its storage key, or null if it cannot; rejects
 * only when it may succeed later (the disk is full).
 */
export type RenderRendition = (rendition: Rendition, attachmentId: number) => Promise<string | null>;

/** The next batch of attachments still to render, or none when there are no more. */
export type RenditionFeed = () => Promise<number[]>;

/** How long no upload must have been under way before renditions are rendered in the background. */
export const RENDITION_IDLE_MS = 1_000;

/** Failed renders remembered (so a broken photo asked for again is not decoded again): a million would not fit. */
export const MAX_REMEMBERED_FAILURES = 10_000;

/** `fn` that does its work on the first call only. */
function once(fn: () => void): () => void {
  let called = false;
  return () => {
    if (called) return;
    called = true;
    fn();
  };
}

const jobOf = (rendition: Rendition, attachmentId: number) => `${rendition}:${attachmentId}`;

/**
 * The renditions (thumbnails, previews) still to render. Uploads and requests come first: in the
 * background one rendition is rendered at a time, only once no upload has been under way for
 * `idleMs`, so a batch of photos is on disk as fast as it arrives, and only while no request is
 * being served, so a backfill of a million previews never slows a gallery or a list; every waiting
 * thumbnail goes before any waiting preview, as the grid needs them first. A rendition somebody
 * asks for is rendered at once (`renderNow`), joining a render of it already under way. One render
 * that failed is not tried again (of the last `maxFailures`); one that rejected (the disk was
 * full) is, when it is next asked for or after the next start.
 */
export class RenditionQueue {
  private readonly waiting = new Map<Rendition, Set<number>>(RENDITIONS.map((r) => [r, new Set<number>()]));
  private readonly running = new Map<string, Promise<string | null>>();
  private readonly failed = new Set<string>();
  private readonly feeds = new Map<Rendition, RenditionFeed>();
  private uploads = 0;
  /** When the last upload ended (the queue's creation, at first). */
  private uploadsEndedAt = performance.now();
  private requests = 0;
  private rendering = false;
  private idleTimer?: NodeJS.Timeout;
  private closed = false;
  /** The background render or refill under way, which closing waits for. */
  private stepping: Promise<void> = Promise.resolve();

  constructor(
    private readonly render: RenderRendition,
    private readonly idleMs = RENDITION_IDLE_MS,
    private readonly maxFailures = MAX_REMEMBERED_FAILURES,
  ) {}

  /** Renditions to render in the background, in this order (after every waiting one of an earlier kind). */
  add(rendition: Rendition, attachmentIds: number[]): void {
    if (this.closed) return;
    for (const id of attachmentIds) this.waiting.get(rendition)!.add(id);
    this.scheduleIdleRender();
  }

  /**
   * Renditions to render in the background, asked of `feed` a batch at a time whenever none of
   * that kind is waiting, until it answers none: a backfill of every photo (previews after an
   * upgrade) is never held in memory at once.
   */
  feed(rendition: Rendition, feed: RenditionFeed): void {
    if (this.closed) return;
    this.feeds.set(rendition, feed);
    this.scheduleIdleRender();
  }

  /** An upload has begun: background rendering waits. Call what this returns once it has ended. */
  uploadStarted(): () => void {
    this.uploads += 1;
    clearTimeout(this.idleTimer);
    this.idleTimer = undefined;
    return once(() => {
      this.uploads -= 1;
      this.uploadsEndedAt = performance.now();
      this.scheduleIdleRender();
    });
  }

  /**
   * A publish build has begun: background rendering waits as it does for an upload, since both
   * read the photos' disk and someone is waiting for them. Call what this returns once it has ended.
   */
  publishStarted(): () => void {
    return this.uploadStarted();
  }

  /** A request is being served: no background render starts until it has ended. Call what this returns then. */
  requestStarted(): () => void {
    this.requests += 1;
    return once(() => {
      this.requests -= 1;
      if (this.requests === 0) this.scheduleIdleRender();
    });
  }

  /** The rendition's storage key, rendered now if need be; null if it cannot be rendered. */
  renderNow(rendition: Rendition, attachmentId: number): Promise<string | null> {
    const job = jobOf(rendition, attachmentId);
    const running = this.running.get(job);
    if (running) return running;
    if (this.failed.has(job)) return Promise.resolve(null);
    this.waiting.get(rendition)!.delete(attachmentId);
    const rendered = this.render(rendition, attachmentId).then((key) => {
      if (key === null) this.rememberFailure(job);
      return key;
    });
    this.running.set(job, rendered);
    const done = () => void this.running.delete(job);
    rendered.then(done, done);
    return rendered;
  }

  private rememberFailure(job: string): void {
    this.failed.add(job);
    // A Set iterates in insertion order: the first is the oldest.
    if (this.failed.size > this.maxFailures) this.failed.delete(this.failed.values().next().value!);
  }

  /** Renditions of one kind waiting for idle time (of a feed, those of the batch it gave last). */
  waitingOf(rendition: Rendition): number {
    return this.waiting.get(rendition)!.size;
  }

  /** Renders nothing more and waits for renders under way; waiting ones are found again at the next start. */
  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.idleTimer);
    for (const ids of this.waiting.values()) ids.clear();
    this.feeds.clear();
    await Promise.allSettled([...this.running.values(), this.stepping]);
  }

  /** What idle time does next: render the first waiting one, or ask a feed for more, kind by kind. */
  private next(): { render: [Rendition, number] } | { refill: Rendition } | undefined {
    for (const [rendition, ids] of this.waiting) {
      const [id] = ids;
      if (id !== undefined) return { render: [rendition, id] };
      if (this.feeds.has(rendition)) return { refill: rendition };
    }
    return undefined;
  }

  private get busy(): boolean {
    return this.closed || this.uploads > 0 || this.requests > 0 || this.rendering;
  }

  private scheduleIdleRender(): void {
    if (this.busy || this.idleTimer || !this.next()) return;
    const wait = Math.max(0, this.uploadsEndedAt + this.idleMs - performance.now());
    this.idleTimer = setTimeout(() => {
      this.idleTimer = undefined;
      this.renderWhileIdle();
    }, wait);
    this.idleTimer.unref();
  }

  private renderWhileIdle(): void {
    if (this.busy) return;
    const next = this.next();
    if (!next) return;
    this.rendering = true;
    const done = () => {
      this.rendering = false;
      this.renderWhileIdle();
    };
    const step = "render" in next ? this.renderNow(...next.render) : this.refill(next.refill);
    this.stepping = step.then(done, done);
  }

  /** The feed's next batch; a feed that answers none (or fails) is done. */
  private async refill(rendition: Rendition): Promise<void> {
    const ids = await this.feeds.get(rendition)!().catch(() => []);
    if (this.closed) return;
    if (ids.length === 0) this.feeds.delete(rendition);
    for (const id of ids) this.waiting.get(rendition)!.add(id);
  }
}
