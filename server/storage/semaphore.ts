/**
 * At most `slots` tasks run at once, and together they weigh at most `capacity` (a task heavier
 * than that runs alone); the others wait in arrival order, so a heavy task is never passed over.
 */
export class Semaphore {
  private active = 0;
  private weight = 0;
  private readonly waiting: Array<{ weight: number; start: () => void }> = [];

  constructor(
    private readonly slots: number,
    private readonly capacity = Infinity,
  ) {}

  async run<T>(task: () => Promise<T>, weight = 0): Promise<T> {
    if (this.waiting.length > 0 || !this.fits(weight)) {
      await new Promise<void>((start) => this.waiting.push({ weight, start }));
    } else this.take(weight);
    try {
      return await task();
    } finally {
      this.active -= 1;
      this.weight -= weight;
      this.startWaiting();
    }
  }

  private fits(weight: number): boolean {
    return this.active === 0 || (this.active < this.slots && this.weight + weight <= this.capacity);
  }

  private take(weight: number) {
    this.active += 1;
    this.weight += weight;
  }

  private startWaiting() {
    while (this.waiting.length > 0 && this.fits(this.waiting[0].weight)) {
      const next = this.waiting.shift()!;
      this.take(next.weight);
      next.start();
    }
  }
}
