/**
 * A build to run. It must stop promptly and clean up after itself once `signal` aborts, and
 * must handle its own errors: the queue only keeps going.
 */
export type PublishTask = (signal: AbortSignal) => Promise<void>;

interface Job {
  projectId: number;
  task: PublishTask;
  controller: AbortController;
  /** Settles when the task has finished or, once aborted, has cleaned up. */
  done?: Promise<void>;
}

export class PublishCancelled extends Error {
  constructor() {
    super("Publishing was cancelled");
    this.name = "PublishCancelled";
  }
}

/**
 * At most `concurrency` builds run at once; the rest wait in arrival order. One job per
 * project: the database's conditional status change already guarantees that.
 */
export class PublishQueue {
  private readonly waiting: Job[] = [];
  private readonly running = new Map<number, Job>();
  private readonly progress = new Map<number, number>();

  constructor(private readonly concurrency: number) {}

  enqueue(projectId: number, task: PublishTask): void {
    this.waiting.push({ projectId, task, controller: new AbortController() });
    this.startNext();
  }

  has(projectId: number): boolean {
    return this.running.has(projectId) || this.waiting.some((job) => job.projectId === projectId);
  }

  /** Latest progress (0-100) of a queued or running build, for late subscribers. */
  progressOf(projectId: number): number | undefined {
    if (!this.has(projectId)) return undefined;
    return this.progress.get(projectId) ?? 0;
  }

  reportProgress(projectId: number, percent: number): void {
    if (this.running.has(projectId)) this.progress.set(projectId, percent);
  }

  /** Drops a waiting job, or aborts a running one and waits until it has cleaned up. */
  async cancel(projectId: number): Promise<void> {
    const index = this.waiting.findIndex((job) => job.projectId === projectId);
    if (index >= 0) {
      this.waiting.splice(index, 1);
      return;
    }
    const job = this.running.get(projectId);
    if (!job) return;
    job.controller.abort(new PublishCancelled());
    await job.done;
  }

  /** Cancels everything (shutdown, tests). */
  async cancelAll(): Promise<void> {
    this.waiting.length = 0;
    await Promise.all([...this.running.keys()].map((id) => this.cancel(id)));
  }

  /** Resolves once nothing is running or waiting. */
  async idle(): Promise<void> {
    while (this.running.size > 0) {
      await Promise.all([...this.running.values()].map((job) => job.done));
    }
  }

  private startNext(): void {
    while (this.running.size < this.concurrency && this.waiting.length > 0) {
      const job = this.waiting.shift()!;
      this.running.set(job.projectId, job);
      job.done = job
        .task(job.controller.signal)
        .catch(() => {})
        .finally(() => {
          this.running.delete(job.projectId);
          this.progress.delete(job.projectId);
          this.startNext();
        });
    }
  }
}
