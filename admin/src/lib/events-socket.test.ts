import { describe, expect, it } from "vitest";
import { reconnectDelay } from "./events-socket";

describe("reconnectDelay", () => {
  it("retries a dropped socket after 30 s, doubling", () => {
    expect([0, 1, 2, 3, 4].map(reconnectDelay)).toEqual([30_000, 60_000, 120_000, 240_000, 480_000]);
  });

  it("never waits longer than 16 minutes", () => {
    expect(reconnectDelay(6)).toBe(16 * 60_000);
    expect(reconnectDelay(40)).toBe(16 * 60_000);
  });
});
