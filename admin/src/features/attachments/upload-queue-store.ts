import type { Attachment } from "../../../../api/types";
import { t } from "../../i18n";

export type UploadStatus = "pending" | "uploading" | "completed" | "error";

export interface UploadItem {
  id: string;
  file: File;
  status: UploadStatus;
  progress: number;
  error?: string;
  /** Whether trying again can help (a dropped connection can; a file of the wrong type cannot). */
  retryable?: boolean;
  attachment?: Attachment;
}

export interface UploadQueueSnapshot {
  /** Every item, in the order the files were added. */
  items: readonly UploadItem[];
  counts: Record<UploadStatus, number>;
}

/** Why a file failed, and whether a retry may succeed. */
export class UploadFailure extends Error {
  constructor(
    message: string,
    readonly retryable: boolean,
  ) {
    super(message);
  }
}

export interface UploadQueueOptions {
  upload: (file: File, onProgress: (percent: number) => void, signal: AbortSignal) => Promise<Attachment>;
  /** Why a file is refused, told from its name and size alone (at once, for every file added), or null. */
  precheck?: (file: File) => string | null;
  /** Why a file is refused, told from its content, before any byte is sent; or null to send it. */
  check: (file: File) => Promise<string | null>;
  onUploaded?: (attachment: Attachment) => void;
  parallel?: number;
  completedVisibleMs?: number;
  /** How change notices are batched (the browser: once per animation frame). */
  schedule?: (notify: () => void) => void;
}

const CHECKS_AT_ONCE = 4;

const newUploadId = () => `${Date.now()}-${Math.random().toString(36).slice(2, 10)}`;

const nextFrame = (notify: () => void) =>
  typeof requestAnimationFrame === "function" ? requestAnimationFrame(notify) : setTimeout(notify, 16);

/**
 * The files being uploaded to one project, kept outside React so that thousands of them cost
 * nothing per progress event: items change one at a time, uploads run a few at once in the
 * order added, and listeners hear of changes at most once per frame.
 */
export class UploadQueueStore {
  private readonly items = new Map<string, UploadItem>();
  private readonly unchecked: string[] = [];
  private checking = 0;
  private readonly waiting: string[] = [];
  private readonly running = new Map<string, AbortController>();
  private readonly timers = new Set<ReturnType<typeof setTimeout>>();
  private readonly listeners = new Set<() => void>();
  private snapshot: UploadQueueSnapshot = { items: [], counts: { pending: 0, uploading: 0, completed: 0, error: 0 } };
  private stale = false;
  private noticeDue = false;
  private disposed = false;

  constructor(private readonly options: UploadQueueOptions) {}

  subscribe = (listener: () => void) => {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  };

  getSnapshot = (): UploadQueueSnapshot => {
    if (this.stale) {
      const items = [...this.items.values()];
      const counts = { pending: 0, uploading: 0, completed: 0, error: 0 };
      for (const item of items) counts[item.status]++;
      this.snapshot = { items, counts };
      this.stale = false;
    }
    return this.snapshot;
  };

  /**
   * Queues files. Those refused by name or size are marked at once; the others' first bytes are
   * read a few files at a time (reading thousands at once would hold the page), and each is sent
   * only once it has passed.
   */
  add(files: readonly File[]) {
    for (const file of files) {
      const id = newUploadId();
      const refusal = this.options.precheck?.(file) ?? null;
      this.items.set(
        id,
        refusal
          ? { id, file, status: "error", progress: 0, error: refusal, retryable: false }
          : { id, file, status: "pending", progress: 0 },
      );
      if (!refusal) this.unchecked.push(id);
    }
    this.changed();
    this.checkNext();
  }

  retry(id: string) {
    const item = this.items.get(id);
    if (item?.status !== "error" || item.retryable === false) return;
    this.patch(id, { status: "pending", progress: 0, error: undefined, retryable: undefined });
    this.waiting.push(id);
    this.pump();
  }

  /** Removing a row that is still uploading cancels its request, so the file never becomes an attachment. */
  remove(id: string) {
    this.running.get(id)?.abort();
    this.running.delete(id);
    this.items.delete(id);
    this.changed();
    this.pump();
  }

  /** Removes every failed row at once. */
  clearFailed() {
    for (const item of this.items.values()) if (item.status === "error") this.items.delete(item.id);
    this.changed();
  }

  /** Takes files again after `dispose` (React mounts a component twice in StrictMode). */
  resume() {
    this.disposed = false;
    this.checkNext();
    this.pump();
  }

  dispose() {
    this.disposed = true;
    for (const controller of this.running.values()) controller.abort();
    this.timers.forEach(clearTimeout);
  }

  private checkNext() {
    while (!this.disposed && this.checking < CHECKS_AT_ONCE && this.unchecked.length > 0) {
      const id = this.unchecked.shift()!;
      const item = this.items.get(id);
      if (!item) continue;
      this.checking++;
      this.options
        .check(item.file)
        .catch(() => null)
        .then((refusal) => {
          this.checking--;
          this.checked(id, refusal);
          this.checkNext();
        });
    }
  }

  private checked(id: string, refusal: string | null) {
    if (!this.items.has(id)) return;
    if (refusal) return this.patch(id, { status: "error", error: refusal, retryable: false });
    this.waiting.push(id);
    this.pump();
  }

  private pump() {
    while (!this.disposed && this.running.size < (this.options.parallel ?? 3) && this.waiting.length > 0) {
      const id = this.waiting.shift()!;
      const item = this.items.get(id);
      if (item?.status === "pending") this.start(item);
    }
  }

  private start(item: UploadItem) {
    const controller = new AbortController();
    this.running.set(item.id, controller);
    this.patch(item.id, { status: "uploading", progress: 0 });
    this.options
      .upload(item.file, (progress) => this.patch(item.id, { progress }), controller.signal)
      .then(
        (attachment) => {
          this.patch(item.id, { status: "completed", progress: 100, attachment });
          this.options.onUploaded?.(attachment);
          const timer = setTimeout(() => {
            this.timers.delete(timer);
            this.remove(item.id);
          }, this.options.completedVisibleMs ?? 2_000);
          this.timers.add(timer);
        },
        (error: unknown) => {
          if (controller.signal.aborted) return;
          const failure = error instanceof UploadFailure ? error : undefined;
          this.patch(item.id, {
            status: "error",
            error: (error as Error)?.message || t("attachments.uploadFailed"),
            retryable: failure?.retryable ?? true,
          });
        },
      )
      .finally(() => {
        if (this.running.get(item.id) === controller) this.running.delete(item.id);
        this.pump();
      });
  }

  private patch(id: string, change: Partial<UploadItem>) {
    const item = this.items.get(id);
    if (!item) return;
    this.items.set(id, { ...item, ...change });
    this.changed();
  }

  private changed() {
    this.stale = true;
    if (this.noticeDue) return;
    this.noticeDue = true;
    (this.options.schedule ?? nextFrame)(() => {
      this.noticeDue = false;
      this.listeners.forEach((listener) => listener());
    });
  }
}
