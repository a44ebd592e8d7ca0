import { describe, expect, it } from "vitest";
import { emailError, nameError, toContactPayload } from "./contact-rules";

describe("contact form rules", () => {
  it("requires a name once trimmed", () => {
    expect(nameError("  ")).toBe("Name is required");
    expect(nameError("Jane")).toBeNull();
  });

  it("refuses a contact whose e-mail has no @", () => {
    expect(emailError("jane.example.com")).toBe("Invalid email format");
    expect(emailError(" jane ")).toBe("Invalid email format");
  });

  it("accepts a missing or blank e-mail, and any e-mail with an @", () => {
    expect(emailError("")).toBeNull();
    expect(emailError("   ")).toBeNull();
    expect(emailError(null)).toBeNull();
    expect(emailError("jane@example.com")).toBeNull();
  });

  it("sends a new contact trimmed, with blank optional fields as null and its clientId", () => {
    expect(toContactPayload({ name: " Jane Doe ", email: "  ", phoneNumber: " +1 555 0100 " }, 7)).toEqual({
      name: "Jane Doe",
      email: null,
      phoneNumber: "+1 555 0100",
      clientId: 7,
    });
  });

  it("leaves the clientId out of an edit, and keeps the phone as free text", () => {
    expect(
      toContactPayload({ name: "Jane", email: " jane@example.com ", phoneNumber: "ext. 12 (ask for Jane)" }),
    ).toEqual({
      name: "Jane",
      email: "jane@example.com",
      phoneNumber: "ext. 12 (ask for Jane)",
    });
  });
});
