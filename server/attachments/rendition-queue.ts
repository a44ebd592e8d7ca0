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

const jobOf = (rendition: Rendition, attachmentId: number) => `${rendition}:${attachmentId}`;

/**
 * The renditions (thumbnails, previews) still to render. Uploads come first: in the background one
 * rendition is rendered at a time, and only once no upload has been under way for `idleMs`, so a
 * batch of photos is on disk as fast as it arrives; every waiting thumbnail goes before any
 * waiting preview, as the grid needs them first. A rendition somebody asks for is rendered at once
 * (`renderNow`), joining a render of it already under way. One render that failed is not tried
 * again; one that rejected (the disk was full) is, when it is next asked for or after the next start.
 */
export class RenditionQueue {
  private readonly waiting = new Map<Rendition, Set<number>>(RENDITIONS.map((r) => [r, new Set<number>()]));
  private readonly running = new Map<string, Promise<string | null>>();
  private readonly failed = new Set<string>();
  private readonly feeds = new Map<Rendition, RenditionFeed>();
  private uploads = 0;
  private rendering = false;
  private idleTimer?: NodeJS.Timeout;
  private closed = false;
  /** The background render or refill under way, which closing waits for. */
  private stepping: Promise<void> = Promise.resolve();

  constructor(
    private readonly render: RenderRendition,
    private readonly idleMs = RENDITION_IDLE_MS,
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
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      this.uploads -= 1;
      this.scheduleIdleRender();
    };
  }

  /** The rendition's storage key, rendered now if need be; null if it cannot be rendered. */
  renderNow(rendition: Rendition, attachmentId: number): Promise<string | null> {
    const job = jobOf(rendition, attachmentId);
    const running = this.running.get(job);
    if (running) return running;
    if (this.failed.has(job)) return Promise.resolve(null);
    this.waiting.get(rendition)!.delete(attachmentId);
    const rendered = this.render(rendition, attachmentId).then((key) => {
      if (key === null) this.failed.add(job);
      return key;
    });
    this.running.set(job, rendered);
    const done = () => void this.running.delete(job);
    rendered.then(done, done);
    return rendered;
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

  private scheduleIdleRender(): void {
    if (this.closed || this.uploads > 0 || this.rendering || this.idleTimer || !this.next()) return;
    this.idleTimer = setTimeout(() => {
      this.idleTimer = undefined;
      this.renderWhileIdle();
    }, this.idleMs);
    this.idleTimer.unref();
  }

  private renderWhileIdle(): void {
    if (this.closed || this.uploads > 0 || this.rendering) return;
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
