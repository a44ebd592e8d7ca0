import { describe, expect, it } from "vitest";
import { expiryError, fromLocalInput, passcodeError, toLocalInput } from "./expiry-input";

describe("the expiry field", () => {
  it("round-trips an instant through the local datetime-local value", () => {
    const iso = new Date(2026, 11, 24, 18, 30).toISOString();
    expect(toLocalInput(iso)).toBe("2026-12-24T18:30");
    expect(fromLocalInput("2026-12-24T18:30")).toBe(iso);
  });

  it("treats empty and unreadable values as no expiry", () => {
    expect(toLocalInput(null)).toBe("");
    expect(fromLocalInput("")).toBeNull();
    expect(fromLocalInput("not a date")).toBeNull();
  });

  it("accepts a blank passcode (keep) and 4 to 64 characters", () => {
    expect(passcodeError("")).toBeNull();
    expect(passcodeError("abcd")).toBeNull();
    expect(passcodeError("abc")).toBe("Passcode must be 4 to 64 characters");
    expect(passcodeError("x".repeat(65))).toBe("Passcode must be 4 to 64 characters");
    for (const bad of ["ab\ncd", "ab\tcd", "ab\u202Ecd", "ab\u0085cd"])
      expect(passcodeError(bad), JSON.stringify(bad)).toBe("Passcode must be on one line, without control characters");
    expect(passcodeError("    ")).toBe("Passcode must have a character other than a space");
    expect(passcodeError(" a b ")).toBeNull();
  });

  it("refuses an expiry that is not in the future, and takes none or a later one", () => {
    const now = new Date(2026, 11, 24, 18, 30).getTime();
    expect(expiryError("2026-12-24T18:29", now)).toBe("The expiry must be in the future");
    expect(expiryError("2026-12-24T18:30", now)).toBe("The expiry must be in the future");
    expect(expiryError("2026-12-24T18:31", now)).toBeNull();
    expect(expiryError("", now)).toBeNull();
  });
});
