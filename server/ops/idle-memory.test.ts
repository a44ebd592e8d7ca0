import v8 from "node:v8";
import { describe, expect, it } from "vitest";
import { giveBackMemoryWhenIdle } from "./idle-memory";

const newSpaceBytes = () => v8.getHeapSpaceStatistics().find((s) => s.space_name === "new_space")!.space_size;
const MB = 1024 * 1024;

/** Allocation like a busy spell's: many short-lived objects, some surviving a while, which grows the young generation. */
function busySpell() {
  let kept: object[] = [];
  for (let i = 0; i < 3_000_000; i++) {
    kept.push({ i, name: `photo-${i}` });
    if (kept.length > 20_000) kept = [];
  }
  return kept.length;
}

describe("giving memory back when idle", () => {
  it("shrinks a young generation grown by a busy spell once the process has been idle for a check's interval", async () => {
    busySpell();
    expect(newSpaceBytes()).toBeGreaterThan(4 * MB);
    // V8 shrinks the young generation at a collection that finds allocation slow over its last
    // few seconds: a check or two after the spell.
    const stop = giveBackMemoryWhenIdle(2_500);
    try {
      // Read every quarter second (a read allocates almost nothing, so the process stays idle), at most 15 s.
      let after = newSpaceBytes();
      for (const deadline = Date.now() + 15_000; after > 4 * MB && Date.now() < deadline; after = newSpaceBytes())
        await new Promise((resolve) => setTimeout(resolve, 250));
      expect(after).toBeLessThanOrEqual(4 * MB);
    } finally {
      stop();
    }
  }, 25_000);

  it("leaves a grown young generation alone while the process stays busy", async () => {
    busySpell();
    const stop = giveBackMemoryWhenIdle(300);
    try {
      // Busy for more than three checks' intervals: the main thread never idles through one.
      const until = Date.now() + 1_200;
      while (Date.now() < until) {
        busySpell();
        await new Promise((resolve) => setImmediate(resolve));
      }
      expect(newSpaceBytes()).toBeGreaterThan(4 * MB);
    } finally {
      stop();
    }
  });
});
