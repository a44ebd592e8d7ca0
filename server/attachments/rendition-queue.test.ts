import { afterEach, describe, expect, it, vi } from "vitest";
import { RenditionQueue } from "./rendition-queue";

const IDLE_MS = 40;
/**
 * Resolves once every idle timer the queue has set so far would have fired and started its
 * render: the queue's timers wait at most IDLE_MS, and this later one waits longer.
 */
const queueTimersPassed = () => new Promise((resolve) => setTimeout(resolve, IDLE_MS + 1));
/** Resolves once every promise chain that could run by now has run (a macrotask after them). */
const settled = () => new Promise((resolve) => setImmediate(resolve));

/**
 * A queue whose renders each wait until the test finishes them (`finish`, or `finishAll` for
 * every render from then on), recording which began and how many ran at once.
 */
function gatedQueue({ failing = [] as number[], maxFailures = undefined as number | undefined } = {}) {
  const started: number[] = [];
  /** performance.now() at each render's start. */
  const startedAt: number[] = [];
  const kinds: string[] = [];
  const gates = new Map<number, () => void>();
  let openAll = false;
  let running = 0;
  let mostAtOnce = 0;
  const queue = new RenditionQueue(
    async (rendition, id) => {
      started.push(id);
      startedAt.push(performance.now());
      kinds.push(`${rendition} ${id}`);
      running += 1;
      mostAtOnce = Math.max(mostAtOnce, running);
      if (!openAll) await new Promise<void>((resolve) => gates.set(id, resolve));
      running -= 1;
      return failing.includes(id) ? null : `1/${id}.${rendition}`;
    },
    IDLE_MS,
    maxFailures,
  );
  queues.push(queue);
  const finish = async (id: number) => {
    await vi.waitFor(() => expect(gates.has(id)).toBe(true));
    gates.get(id)!();
  };
  const finishAll = () => {
    openAll = true;
    for (const open of gates.values()) open();
  };
  return { queue, started, startedAt, kinds, finish, finishAll, mostAtOnce: () => mostAtOnce };
}

const queues: RenditionQueue[] = [];
afterEach(async () => {
  await Promise.all(queues.splice(0).map((q) => q.close()));
});

describe("the rendition queue", () => {
  it("renders what was added one at a time, in order, once nothing has been uploaded for a while", async () => {
    // The queue counts its idle time from its creation (no upload yet).
    const createdAt = performance.now();
    const { queue, started, startedAt, finishAll, mostAtOnce } = gatedQueue();
    queue.add("thumbnail", [1, 2, 3]);
    expect(started).toEqual([]);
    await vi.waitFor(() => expect(started).toEqual([1]));
    // It waited for the idle time, not started at once. Not to the millisecond: a timer counts from the
    // event loop's cached time, which on a loaded machine can lag this clock by more than 1 ms (CI: 38.8).
    expect(startedAt[0] - createdAt).toBeGreaterThanOrEqual(IDLE_MS / 2);
    finishAll();
    await vi.waitFor(() => expect(started).toEqual([1, 2, 3]));
    expect(mostAtOnce()).toBe(1);
    expect(queue.waitingOf("thumbnail")).toBe(0);
  });

  it("renders nothing in the background while an upload is under way, and starts once it has ended", async () => {
    const { queue, started, finishAll } = gatedQueue();
    finishAll();
    const uploadEnded = queue.uploadStarted();
    queue.add("thumbnail", [1, 2]);
    await queueTimersPassed();
    expect(started).toEqual([]);
    expect(queue.waitingOf("thumbnail")).toBe(2);
    uploadEnded();
    uploadEnded(); // a second call changes nothing
    await vi.waitFor(() => expect(started).toEqual([1, 2]));
  });

  it("stops between renders when an upload begins, and goes on once it has ended", async () => {
    const { queue, started, finish, finishAll } = gatedQueue();
    queue.add("thumbnail", [1, 2, 3]);
    await vi.waitFor(() => expect(started).toEqual([1]));
    const uploadEnded = queue.uploadStarted();
    await finish(1);
    await queueTimersPassed();
    expect(started).toEqual([1]);
    finishAll();
    uploadEnded();
    await vi.waitFor(() => expect(started).toEqual([1, 2, 3]));
  });

  it("renders nothing in the background while any request is being served, and goes on at once after", async () => {
    const { queue, started, finish, finishAll } = gatedQueue();
    queue.add("thumbnail", [1, 2, 3]);
    await vi.waitFor(() => expect(started).toEqual([1]));
    const served = [queue.requestStarted(), queue.requestStarted()];
    await finish(1);
    await queueTimersPassed();
    expect(started).toEqual([1]);
    served[0]();
    served[0](); // a second call changes nothing
    await queueTimersPassed();
    expect(started).toEqual([1]);
    finishAll();
    served[1]();
    // No upload lately: the next render does not wait for another idle period.
    await vi.waitFor(() => expect(started).toEqual([1, 2, 3]), { timeout: IDLE_MS * 0.75, interval: 2 });
  });

  it("keeps the failed renders it remembers bounded, forgetting the oldest first", async () => {
    const { queue, started, finishAll } = gatedQueue({ failing: [1, 2, 3], maxFailures: 2 });
    finishAll();
    for (const id of [1, 2, 3]) expect(await queue.renderNow("preview", id)).toBeNull();
    for (const id of [2, 3, 1]) await queue.renderNow("preview", id);
    // 2 and 3 were remembered; 1 was forgotten and so tried once more.
    expect(started).toEqual([1, 2, 3, 1]);
  });

  it("renders every waiting thumbnail before any waiting preview, whichever was added first", async () => {
    const { queue, kinds, finishAll } = gatedQueue();
    finishAll();
    queue.add("preview", [1, 2]);
    queue.add("thumbnail", [3]);
    queue.add("preview", [3]);
    queue.add("thumbnail", [4]);
    await vi.waitFor(() => expect(kinds).toHaveLength(5));
    expect(kinds).toEqual(["thumbnail 3", "thumbnail 4", "preview 1", "preview 2", "preview 3"]);
    expect([queue.waitingOf("thumbnail"), queue.waitingOf("preview")]).toEqual([0, 0]);
  });

  it("asks a feed for its next batch only once none of its kind is waiting, until it answers none", async () => {
    const { queue, kinds, finishAll } = gatedQueue();
    finishAll();
    const batches = [[1, 3], [4], []];
    let asked = 0;
    queue.feed("preview", async () => batches[asked++] ?? []);
    const thumbnails = [[7], []];
    queue.feed("thumbnail", async () => thumbnails.shift() ?? []);
    queue.add("preview", [2, 9]);
    await vi.waitFor(() => expect(asked).toBe(3));
    await vi.waitFor(() => expect(kinds).toHaveLength(6));
    // The thumbnails' feed goes first; the previews added are rendered before the feed is asked.
    expect(kinds).toEqual(["thumbnail 7", "preview 2", "preview 9", "preview 1", "preview 3", "preview 4"]);
    await queueTimersPassed();
    expect(asked).toBe(3);
  });

  it("renders an asked-for thumbnail at once, even during an upload, and joins a render of it under way", async () => {
    const { queue, started, finish } = gatedQueue();
    queue.uploadStarted();
    queue.add("thumbnail", [7, 8]);
    const asked = [queue.renderNow("thumbnail", 8), queue.renderNow("thumbnail", 8)];
    await finish(8);
    expect(await Promise.all(asked)).toEqual(["1/8.thumbnail", "1/8.thumbnail"]);
    expect(started).toEqual([8]);
    expect(queue.waitingOf("thumbnail")).toBe(1);
  });

  it("does not try a failed render again", async () => {
    const { queue, started, finishAll } = gatedQueue({ failing: [5] });
    finishAll();
    expect(await queue.renderNow("preview", 5)).toBeNull();
    expect(await queue.renderNow("preview", 5)).toBeNull();
    expect(started).toEqual([5]);
    // The failure was the preview's: the thumbnail is still tried.
    expect(await queue.renderNow("thumbnail", 5)).toBeNull();
    expect(started).toEqual([5, 5]);
  });

  it("on close, waits for the render under way and drops the waiting ones", async () => {
    const { queue, started, finish } = gatedQueue();
    queue.add("thumbnail", [1, 2]);
    await vi.waitFor(() => expect(started).toEqual([1]));
    let closed = false;
    const closing = queue.close().then(() => (closed = true));
    await settled();
    expect(closed).toBe(false);
    await finish(1);
    await closing;
    queue.add("thumbnail", [3]);
    await queueTimersPassed();
    expect(started).toEqual([1]);
  });
});
