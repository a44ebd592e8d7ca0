import { describe, expect, it } from "vitest";
import { describePasswordPolicy } from "./password-policy";

describe("describePasswordPolicy", () => {
  it("states the default minimum of 6 when the policy names none", () => {
    expect(describePasswordPolicy({})).toBe("Password must be at least 6 characters long.");
  });

  it("states a range when a maximum length is set", () => {
    expect(describePasswordPolicy({ minLength: 8, maxLength: 64 })).toBe("Password must be 8 to 64 characters long.");
  });

  it("lists every required kind of character", () => {
    expect(
      describePasswordPolicy({
        minLength: 10,
        requireUppercase: true,
        requireLowercase: true,
        requireNumeric: true,
        requireNonAlphanumeric: true,
      }),
    ).toBe(
      "Password must be at least 10 characters long and include an uppercase letter, a lowercase letter, a number and a symbol.",
    );
  });

  it("names a single required kind without a list", () => {
    expect(describePasswordPolicy({ minLength: 6, requireNumeric: true })).toBe(
      "Password must be at least 6 characters long and include a number.",
    );
  });
});
