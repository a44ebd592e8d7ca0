import { describe, expect, it } from "vitest";
import { nameError, toClientPayload } from "./client-rules";

describe("client form rules", () => {
  it("refuses an empty or blank name with the spec's message", () => {
    expect(nameError("")).toBe("Name is required");
    expect(nameError("   \t")).toBe("Name is required");
    expect(nameError(null)).toBe("Name is required");
  });

  it("refuses a name with a line break, a control character or a bidi override inside it, as the server does", () => {
    for (const bad of [
      "Acme\nURGENT",
      "Acme\r\nX",
      "Acme\u2028Co",
      "Acme\u0085Co",
      "Acme\tCo",
      "Acme\u0007",
      "Acme\u202Eoc",
    ])
      expect(nameError(bad), JSON.stringify(bad)).toBe("Name must be on one line, without control characters");
    expect(nameError("\u200FAcme\u200E")).toBeNull();
  });

  it("accepts a name with text in it and sends it trimmed", () => {
    expect(nameError(" Acme ")).toBeNull();
    expect(toClientPayload({ name: "  Acme Studio  " })).toEqual({ name: "Acme Studio" });
  });
});
