import { performance } from "node:perf_hooks";
import v8 from "node:v8";
import vm from "node:vm";

/** The main thread busy less than this share of a check's interval: the process is idle. */
const IDLE_UTILIZATION = 0.01;
/** A young generation above this has grown under load (it starts at 1 MB a semi-space). */
const GROWN_NEW_SPACE_BYTES = 4 * 1024 * 1024;

let collect: ((options: { type: "major"; execution: "sync" }) => void) | undefined;

/** V8's collector as `--expose-gc` gives it, fetched without exposing it to every module as `global.gc`. */
function collector() {
  if (!collect) {
    v8.setFlagsFromString("--expose-gc");
    collect = vm.runInNewContext("gc") as typeof collect;
  }
  return collect!;
}

const newSpaceBytes = () => v8.getHeapSpaceStatistics().find((s) => s.space_name === "new_space")?.space_size ?? 0;

/**
 * Gives back the memory a busy spell left committed once the process is idle. Under load V8's
 * young generation grows to `--max-semi-space-size` (8 MB: the list routes need less collector
 * time with it) and stays that size while nothing allocates, since it only shrinks at a
 * collection that finds allocation slow. So when a check finds the main thread idle over its
 * whole interval and the young generation grown, one full collection runs (tens of ms, at a time
 * nothing waits): the young generation shrinks to what it holds and freed pages go back. It runs
 * once per idle spell. Returns a function that stops the checks.
 */
export function giveBackMemoryWhenIdle(checkEveryMs = 15_000): () => void {
  let last = performance.eventLoopUtilization();
  const timer = setInterval(() => {
    const now = performance.eventLoopUtilization();
    const idle = performance.eventLoopUtilization(now, last).utilization < IDLE_UTILIZATION;
    last = now;
    if (idle && newSpaceBytes() > GROWN_NEW_SPACE_BYTES) collector()({ type: "major", execution: "sync" });
  }, checkEveryMs);
  timer.unref();
  return () => clearInterval(timer);
}
