import { describe, expect, it } from "vitest";
import { runPeriodically } from "./periodic-task";
import { until } from "./test/wait";

/** Resolves once an interval of `everyMs`, set now, has come due `times` times. */
function intervalsPassed(everyMs: number, times: number): Promise<void> {
  return new Promise((resolve) => {
    let left = times;
    const timer = setInterval(() => {
      if (--left > 0) return;
      clearInterval(timer);
      resolve();
    }, everyMs);
  });
}

describe("runPeriodically", () => {
  it("runs at once and then on each interval, one run at a time, past a failed run, until stopped", async () => {
    const runs: Array<"start" | "end"> = [];
    const failures: string[] = [];
    let n = 0;
    const stop = runPeriodically(
      async () => {
        n += 1;
        runs.push("start");
        // Each run outlasts the interval, so the next ones come due while it runs.
        await new Promise((resolve) => setTimeout(resolve, 60));
        runs.push("end");
        if (n === 1) throw new Error("first run failed");
      },
      20,
      (err) => failures.push(err.message),
    );
    await until(
      () => n,
      (count) => count >= 3,
    );
    stop();
    const atStop = n;
    await until(
      () => runs.at(-1),
      (last) => last === "end",
    );
    // The quiet proved: an interval of the same length, set after the stop, comes due three times; every
    // tick of the stopped one would have come due before it, and a run starts in the tick that starts it.
    await intervalsPassed(20, 3);
    // Runs that came due while one was going were skipped, not queued: none starts after the stop.
    expect(n).toBe(atStop);
    expect(failures).toEqual(["first run failed"]);
    // Never two at once: starts and ends alternate.
    expect(runs.every((r, i) => r === (i % 2 === 0 ? "start" : "end"))).toBe(true);
  });
});
