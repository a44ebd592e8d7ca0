import { describe, expect, it } from "vitest";
import { RecentlyUsed } from "./recently-used";

/** A map of `n` entries, 1 the oldest, each passed over once since it was set. */
function filled(n: number): RecentlyUsed<number, string> {
  const map = new RecentlyUsed<number, string>();
  for (let key = 1; key <= n; key++) map.set(key, `v${key}`);
  expect(map.leastRecentlyUsed()).toEqual([1, "v1"]);
  return map;
}

const order = (map: RecentlyUsed<number, string>) => [...map.keys()];

describe("RecentlyUsed", () => {
  it("lets go of the oldest entry not used, moving the used ones it passes to the newest end", () => {
    const map = filled(5);
    expect(map.use(1)).toBe("v1");
    expect(map.use(2)).toBe("v2");
    expect(map.use(4)).toBe("v4");
    expect(order(map)).toEqual([1, 2, 3, 4, 5]);
    expect(map.leastRecentlyUsed()).toEqual([3, "v3"]);
    expect(order(map)).toEqual([3, 4, 5, 1, 2]);
    map.delete(3);
    // 4 is still marked: it is passed over now, and goes after 2.
    expect(map.leastRecentlyUsed()).toEqual([5, "v5"]);
    expect(order(map)).toEqual([5, 1, 2, 4]);
    map.delete(5);
    expect(map.leastRecentlyUsed()).toEqual([1, "v1"]);
  });

  it("counts a set as a use, so a new entry is not the next to go", () => {
    const map = filled(3);
    map.set(4, "v4");
    expect(map.leastRecentlyUsed()).toEqual([1, "v1"]);
    for (const key of [1, 2, 3]) map.use(key);
    map.set(5, "v5");
    // Every entry is marked: each is passed over once, and the oldest comes round first.
    expect(map.leastRecentlyUsed()).toEqual([1, "v1"]);
    expect(order(map)).toEqual([1, 2, 3, 4, 5]);
  });

  it("never lets go of an entry used since it was last passed over", () => {
    const map = filled(100);
    const hot = [7, 31, 64];
    for (let key = 101; key <= 1000; key++) {
      for (const h of hot) expect(map.use(h)).toBe(`v${h}`);
      map.set(key, `v${key}`);
      const [oldest] = map.leastRecentlyUsed()!;
      expect(hot).not.toContain(oldest);
      map.delete(oldest);
    }
    expect(map.size).toBe(100);
    for (const h of hot) expect(map.get(h)).toBe(`v${h}`);
  });

  it("reads without a use, sets as newest, deletes and clears", () => {
    const map = filled(4);
    expect(map.get(1)).toBe("v1");
    expect(map.leastRecentlyUsed()).toEqual([1, "v1"]);
    map.set(1, "again");
    expect(order(map)).toEqual([2, 3, 4, 1]);
    expect(map.get(1)).toBe("again");
    expect(map.delete(3)).toBe(true);
    expect(map.use(3)).toBeUndefined();
    expect(map.size).toBe(3);
    map.clear();
    expect([map.size, map.leastRecentlyUsed()]).toEqual([0, undefined]);
  });
});
