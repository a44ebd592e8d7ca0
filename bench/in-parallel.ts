/** Runs `task` on every item, `parallel` at a time, in order; answers the seconds taken. */
export async function inParallel<T>(items: T[], parallel: number, task: (item: T) => Promise<void>): Promise<number> {
  let next = 0;
  const started = performance.now();
  const worker = async () => {
    while (next < items.length) await task(items[next++]);
  };
  await Promise.all(Array.from({ length: parallel }, worker));
  return (performance.now() - started) / 1000;
}
