/**
 * Runs `task` soon after the call and then every `everyMs`, one run at a time: a run that comes
 * due while the last is still going is skipped rather than queued. The timers do not keep the
 * process alive. A failed run goes to `failed` and the next one still comes. Answers the
 * function that stops it (a run already going finishes).
 */
export function runPeriodically(task: () => Promise<void>, everyMs: number, failed: (err: Error) => void): () => void {
  let running = false;
  const tick = () => {
    if (running) return;
    running = true;
    void Promise.resolve()
      .then(task)
      .catch(failed)
      .finally(() => (running = false));
  };
  const first = setTimeout(tick, 0);
  const timer = setInterval(tick, everyMs);
  first.unref();
  timer.unref();
  return () => {
    clearTimeout(first);
    clearInterval(timer);
  };
}
