/**
 * Renders one attachment's thumbnail and answers its storage key, or null if it cannot; rejects
 * only when it may succeed later (the disk is full).
 */
export type RenderThumbnail = (attachmentId: number) => Promise<string | null>;

/** How long no upload must have been under way before thumbnails are rendered in the background. */
export const THUMBNAIL_IDLE_MS = 1_000;

/**
 * The thumbnails still to render. Uploads come first: in the background one thumbnail is rendered
 * at a time, and only once no upload has been under way for `idleMs`, so a batch of photos is on
 * disk as fast as it arrives. A thumbnail somebody asks for is rendered at once (`renderNow`),
 * joining a render of it already under way. One render that failed is not tried again; one that
 * rejected (the disk was full) is, when it is next asked for or after the next start.
 */
export class ThumbnailQueue {
  private readonly waiting = new Set<number>();
  private readonly running = new Map<number, Promise<string | null>>();
  private readonly failed = new Set<number>();
  private uploads = 0;
  private rendering = false;
  private idleTimer?: NodeJS.Timeout;
  private closed = false;

  constructor(
    private readonly render: RenderThumbnail,
    private readonly idleMs = THUMBNAIL_IDLE_MS,
  ) {}

  /** Thumbnails to render in the background, in this order. */
  add(attachmentIds: number[]): void {
    if (this.closed) return;
    for (const id of attachmentIds) this.waiting.add(id);
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

  /** The thumbnail's storage key, rendered now if need be; null if it cannot be rendered. */
  renderNow(attachmentId: number): Promise<string | null> {
    const running = this.running.get(attachmentId);
    if (running) return running;
    if (this.failed.has(attachmentId)) return Promise.resolve(null);
    this.waiting.delete(attachmentId);
    return this.start(attachmentId);
  }

  /** Thumbnails waiting for idle time. */
  get size(): number {
    return this.waiting.size;
  }

  /** Renders nothing more and waits for renders under way; waiting ones are found again at the next start. */
  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.idleTimer);
    this.waiting.clear();
    await Promise.allSettled(this.running.values());
  }

  private start(attachmentId: number): Promise<string | null> {
    const rendered = this.render(attachmentId).then((key) => {
      if (key === null) this.failed.add(attachmentId);
      return key;
    });
    this.running.set(attachmentId, rendered);
    const done = () => void this.running.delete(attachmentId);
    rendered.then(done, done);
    return rendered;
  }

  private scheduleIdleRender(): void {
    if (this.closed || this.uploads > 0 || this.rendering || this.idleTimer || this.waiting.size === 0) return;
    this.idleTimer = setTimeout(() => {
      this.idleTimer = undefined;
      this.renderWhileIdle();
    }, this.idleMs);
    this.idleTimer.unref();
  }

  private renderWhileIdle(): void {
    if (this.closed || this.uploads > 0 || this.rendering) return;
    const [next] = this.waiting;
    if (next === undefined) return;
    this.waiting.delete(next);
    this.rendering = true;
    const done = () => {
      this.rendering = false;
      this.renderWhileIdle();
    };
    this.renderNow(next).then(done, done);
  }
}
