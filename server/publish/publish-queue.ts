/**
 * A build to run. It must stop promptly and clean up after itself once `signal` aborts, and
 * must handle its own errors: the queue only keeps going.
 */
export type PublishTask = (signal: AbortSignal) => Promise<void>;

/** One publish claim: the project and the build id the claim stored on its row. */
export interface PublishBuild {
  projectId: number;
  buildId: string;
  /** Once published, mail the recipients who already have the link that the gallery was updated. */
  notifyRecipients?: boolean;
}

interface Job extends PublishBuild {
  task: PublishTask;
  controller: AbortController;
  progress: number;
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
 * At most `concurrency` builds run at once; the rest wait in arrival order. Jobs are keyed by
 * build, not project: a cancelled build still cleaning up and the project's next build may be
 * in the queue together, and neither must overwrite or remove the other's entry.
 */
export class PublishQueue {
  private readonly waiting: Job[] = [];
  private readonly running = new Map<string, Job>();

  constructor(private readonly concurrency: number) {}

  enqueue(build: PublishBuild, task: PublishTask): void {
    if (this.running.has(build.buildId) || this.waiting.some((job) => job.buildId === build.buildId)) {
      throw new Error(`Build ${build.buildId} is already queued`);
    }
    this.waiting.push({ ...build, task, controller: new AbortController(), progress: 0 });
    this.startNext();
  }

  /** Whether any build of the project is waiting or running (a cancelled one until it has cleaned up). */
  has(projectId: number): boolean {
    return this.jobsOf(projectId).length > 0;
  }

  /** Builds waiting or running, cancelled ones included until they have cleaned up. */
  get size(): number {
    return this.running.size + this.waiting.length;
  }

  /** Builds waiting for a free slot (none of them has started). */
  get waitingCount(): number {
    return this.waiting.length;
  }

  /** Builds waiting or running that nobody has cancelled: the ones whose leases this process keeps. */
  builds(): PublishBuild[] {
    return [...this.running.values(), ...this.waiting]
      .filter((job) => !job.controller.signal.aborted)
      .map(({ projectId, buildId }) => ({ projectId, buildId }));
  }

  /** Latest progress (0-100) of the project's current build, for late subscribers. */
  progressOf(projectId: number): number | undefined {
    const current = this.jobsOf(projectId).filter((job) => !job.controller.signal.aborted);
    return current.at(-1)?.progress;
  }

  reportProgress(buildId: string, percent: number): void {
    const job = this.running.get(buildId);
    if (job && !job.controller.signal.aborted) job.progress = percent;
  }

  /** Stops the one build, waiting or running, and waits until it has cleaned up. */
  async cancelBuild(buildId: string): Promise<void> {
    await this.stop((job) => job.buildId === buildId);
  }

  /** Stops every build of the project (normally one) and waits until they have cleaned up. */
  async cancel(projectId: number): Promise<void> {
    await this.stop((job) => job.projectId === projectId);
  }

  /** Cancels everything (shutdown, tests). */
  async cancelAll(): Promise<void> {
    await this.stop(() => true);
  }

  /** Resolves once nothing is running or waiting. */
  async idle(): Promise<void> {
    while (this.running.size > 0) {
      await Promise.all([...this.running.values()].map((job) => job.done));
    }
  }

  private jobsOf(projectId: number): Job[] {
    return [...this.running.values(), ...this.waiting].filter((job) => job.projectId === projectId);
  }

  /** Drops matching waiting jobs, aborts matching running ones and waits for their cleanup. */
  private async stop(matches: (job: Job) => boolean): Promise<void> {
    for (let i = this.waiting.length - 1; i >= 0; i--) {
      if (matches(this.waiting[i])) this.waiting.splice(i, 1);
    }
    const running = [...this.running.values()].filter(matches);
    for (const job of running) job.controller.abort(new PublishCancelled());
    await Promise.all(running.map((job) => job.done));
  }

  private startNext(): void {
    while (this.running.size < this.concurrency && this.waiting.length > 0) {
      const job = this.waiting.shift()!;
      this.running.set(job.buildId, job);
      job.done = job
        .task(job.controller.signal)
        .catch(() => {})
        .finally(() => {
          this.running.delete(job.buildId);
          this.startNext();
        });
    }
  }
}
