import { describe, expect, it } from "vitest";
import { addressError, subjectError } from "./recipient-rules";

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

describe("subjectError", () => {
  it("takes a subject on one line, trimmed", () => {
    expect(subjectError(" Your photos from Lumen: Lima Wedding \n")).toBeNull();
    expect(subjectError("")).toBeNull();
  });

  it("refuses a line break, a control character or a bidi override inside it, as the server does", () => {
    for (const bad of [
      "Photos\nBcc: evil@attacker.test",
      "Photos\r\nX: y",
      "Photos\u2028now",
      "Photos\tnow",
      "Photos\u202Ewon",
    ])
      expect(subjectError(bad), JSON.stringify(bad)).toBe("Subject must be on one line, without control characters");
  });
});
