import { describe, expect, it } from "vitest";
import { nameError, toClientPayload } from "./client-rules";

describe("client form rules", () => {
  it("refuses an empty or blank name with the spec's message", () => {
    expect(nameError("")).toBe("Name is required");
    expect(nameError("   \t")).toBe("Name is required");
    expect(nameError(null)).toBe("Name is required");
  });

  it("accepts a name with text in it and sends it trimmed", () => {
    expect(nameError(" Acme ")).toBeNull();
    expect(toClientPayload({ name: "  Acme Studio  " })).toEqual({ name: "Acme Studio" });
  });
});
