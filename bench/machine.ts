import os from "node:os";
import { cpuSecondsOf } from "./wrk";

/** The line each bench ends with: figures are only comparable on a machine as quiet as this says. */
export const loadAverageLine = (when = "at the end") =>
  `Load average ${when}: ${os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(" ")} on ${os.cpus().length} cores`;

/**
 * Waits until a process has finished its queued work (or the work it does after starting: the
 * search indexes' merge): a fifth of a second with at most 5% of a core. Answers the seconds waited.
 */
export async function untilIdle(pid: number): Promise<number> {
  const began = performance.now();
  for (;;) {
    const before = cpuSecondsOf(pid);
    await new Promise((resolve) => setTimeout(resolve, 200));
    if (cpuSecondsOf(pid) - before <= 0.01) return (performance.now() - began) / 1000;
  }
}
