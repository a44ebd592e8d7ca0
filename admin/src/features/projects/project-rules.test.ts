import { describe, expect, it } from "vitest";
import { nameError } from "./project-rules";

describe("project form rules", () => {
  it("requires a name once trimmed", () => {
    expect(nameError("   ")).toBe("Name is required");
    expect(nameError(" Lima Wedding ")).toBeNull();
  });

  it("refuses a name that is not on one line, as the server does: it heads the mail, the page and the ZIP's name", () => {
    for (const bad of ["Lima\nWedding", "Lima\u2029Wedding", "Lima\tWedding", "Lima\u202Egpj.exe"])
      expect(nameError(bad), JSON.stringify(bad)).toBe("Name must be on one line, without control characters");
  });
});
