import { describe, expect, it } from "vitest";
import { emailError, nameError, phoneError, toContactPayload } from "./contact-rules";
import { INVALID_EMAILS, INVALID_PHONES, VALID_EMAILS, VALID_PHONES } from "../../../../server/test/address-examples";

describe("contact form rules", () => {
  it("requires a name once trimmed", () => {
    expect(nameError("  ")).toBe("Name is required");
    expect(nameError("Jane")).toBeNull();
  });

  it("refuses a name that is not on one line, as the server does: it heads the client's mail", () => {
    for (const bad of ["Jane\nBcc: x@y.test", "Jane\tDoe", "Jane\u2067Doe\u2069"])
      expect(nameError(bad), JSON.stringify(bad)).toBe("Name must be on one line, without control characters");
  });

  it.each(INVALID_EMAILS)("refuses the e-mail %j as the server does", (email) => {
    expect(emailError(email)).toBe("Invalid email format");
  });

  it.each(VALID_EMAILS)("accepts the e-mail %s as the server does", (email) => {
    expect(emailError(` ${email} `)).toBeNull();
  });

  it("accepts a missing or blank e-mail", () => {
    expect(emailError("")).toBeNull();
    expect(emailError("   ")).toBeNull();
    expect(emailError(null)).toBeNull();
  });

  it.each(INVALID_PHONES)("refuses the phone number %j as the server does", (phone) => {
    expect(phoneError(phone)).toMatch(/^A phone number may hold only/);
  });

  it("refuses a phone number on more than one line, as the server does", () => {
    for (const bad of ["555 0100\n\next 12", "555 0100\u2028x 12", "555 0100\tx 12"])
      expect(phoneError(bad), JSON.stringify(bad)).toMatch(/^A phone number may hold only/);
  });

  it.each(VALID_PHONES)("accepts the phone number %s as the server does, and a blank one", (phone) => {
    expect(phoneError(phone)).toBeNull();
    expect(phoneError("  ")).toBeNull();
  });

  it("sends a new contact trimmed, with blank optional fields as null and its clientId", () => {
    expect(toContactPayload({ name: " Jane Doe ", email: "  ", phoneNumber: " +1 555 0100 " }, 7)).toEqual({
      name: "Jane Doe",
      email: null,
      phoneNumber: "+1 555 0100",
      clientId: 7,
    });
  });

  it("leaves the clientId out of an edit", () => {
    expect(toContactPayload({ name: "Jane", email: " jane@example.com ", phoneNumber: "(555) 123-4567 x 12" })).toEqual(
      {
        name: "Jane",
        email: "jane@example.com",
        phoneNumber: "(555) 123-4567 x 12",
      },
    );
  });
});
