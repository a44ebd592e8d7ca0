import { describe, expect, it } from "vitest";
import { parseRouteId } from "./route-id";

describe("parseRouteId", () => {
  it("reads a positive integer", () => {
    expect(parseRouteId("7")).toBe(7);
    expect(parseRouteId("1234567")).toBe(1234567);
  });

  it.each(["", "0", "-1", "1.5", "5.0", "1e2", "0x10", "7x", "abc", "99999999999999999999"])("refuses %j", (raw) => {
    expect(parseRouteId(raw)).toBeNull();
  });
});
