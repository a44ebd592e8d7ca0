import { afterEach, describe, expect, it, vi } from "vitest";
import { ThumbnailQueue } from "./thumbnail-queue";

const IDLE_MS = 40;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A queue whose renders each wait until the test finishes them (`finish`, or `finishAll` for
 * every render from then on), recording which began and how many ran at once.
 */
function gatedQueue({ failing = [] as number[] } = {}) {
  const started: number[] = [];
  const gates = new Map<number, () => void>();
  let openAll = false;
  let running = 0;
  let mostAtOnce = 0;
  const queue = new ThumbnailQueue(async (id) => {
    started.push(id);
    running += 1;
    mostAtOnce = Math.max(mostAtOnce, running);
    if (!openAll) await new Promise<void>((resolve) => gates.set(id, resolve));
    running -= 1;
    return failing.includes(id) ? null : `1/${id}.thumb.webp`;
  }, IDLE_MS);
  queues.push(queue);
  const finish = async (id: number) => {
    await vi.waitFor(() => expect(gates.has(id)).toBe(true));
    gates.get(id)!();
  };
  const finishAll = () => {
    openAll = true;
    for (const open of gates.values()) open();
  };
  return { queue, started, finish, finishAll, mostAtOnce: () => mostAtOnce };
}

const queues: ThumbnailQueue[] = [];
afterEach(async () => {
  await Promise.all(queues.splice(0).map((q) => q.close()));
});

describe("the thumbnail queue", () => {
  it("renders what was added one at a time, in order, once nothing has been uploaded for a while", async () => {
    const { queue, started, finishAll, mostAtOnce } = gatedQueue();
    queue.add([1, 2, 3]);
    await sleep(IDLE_MS / 2);
    expect(started).toEqual([]);
    await vi.waitFor(() => expect(started).toEqual([1]));
    finishAll();
    await vi.waitFor(() => expect(started).toEqual([1, 2, 3]));
    expect(mostAtOnce()).toBe(1);
    expect(queue.size).toBe(0);
  });

  it("renders nothing in the background while an upload is under way, and starts once it has ended", async () => {
    const { queue, started, finishAll } = gatedQueue();
    finishAll();
    const uploadEnded = queue.uploadStarted();
    queue.add([1, 2]);
    await sleep(IDLE_MS * 3);
    expect(started).toEqual([]);
    expect(queue.size).toBe(2);
    uploadEnded();
    uploadEnded(); // a second call changes nothing
    await vi.waitFor(() => expect(started).toEqual([1, 2]));
  });

  it("stops between renders when an upload begins, and goes on once it has ended", async () => {
    const { queue, started, finish, finishAll } = gatedQueue();
    queue.add([1, 2, 3]);
    await vi.waitFor(() => expect(started).toEqual([1]));
    const uploadEnded = queue.uploadStarted();
    await finish(1);
    await sleep(IDLE_MS * 3);
    expect(started).toEqual([1]);
    finishAll();
    uploadEnded();
    await vi.waitFor(() => expect(started).toEqual([1, 2, 3]));
  });

  it("renders an asked-for thumbnail at once, even during an upload, and joins a render of it under way", async () => {
    const { queue, started, finish } = gatedQueue();
    queue.uploadStarted();
    queue.add([7, 8]);
    const asked = [queue.renderNow(8), queue.renderNow(8)];
    await finish(8);
    expect(await Promise.all(asked)).toEqual(["1/8.thumb.webp", "1/8.thumb.webp"]);
    expect(started).toEqual([8]);
    expect(queue.size).toBe(1);
  });

  it("does not try a failed render again", async () => {
    const { queue, started, finishAll } = gatedQueue({ failing: [5] });
    finishAll();
    expect(await queue.renderNow(5)).toBeNull();
    expect(await queue.renderNow(5)).toBeNull();
    expect(started).toEqual([5]);
  });

  it("on close, waits for the render under way and drops the waiting ones", async () => {
    const { queue, started, finish } = gatedQueue();
    queue.add([1, 2]);
    await vi.waitFor(() => expect(started).toEqual([1]));
    let closed = false;
    const closing = queue.close().then(() => (closed = true));
    await sleep(IDLE_MS);
    expect(closed).toBe(false);
    await finish(1);
    await closing;
    queue.add([3]);
    await sleep(IDLE_MS * 3);
    expect(started).toEqual([1]);
  });
});
