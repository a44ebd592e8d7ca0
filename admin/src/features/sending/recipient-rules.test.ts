import { describe, expect, it } from "vitest";
import { addressError } from "./recipient-rules";

describe("addressError", () => {
  it("accepts one plain address", () => {
    expect(addressError(" friend@example.test ", [])).toBeNull();
  });

  it("refuses names, lists, line breaks and spaces", () => {
    for (const value of [
      "Ana <ana@x.test>",
      "a@x.test, b@x.test",
      "a@x.test\nBcc: b@x.test",
      "a b@x.test",
      "no-at",
      "a@b",
    ])
      expect(addressError(value, [])).toBe("Invalid email format");
    expect(addressError("", [])).toBe("Type an e-mail address");
  });

  it("refuses an address already listed, whatever its case", () => {
    expect(addressError("Ana@X.test", ["ana@x.test"])).toBe("This address is already listed");
  });
});
