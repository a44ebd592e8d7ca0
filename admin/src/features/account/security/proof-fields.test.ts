import { describe, expect, it } from "vitest";
import type { HttpError } from "@refinedev/core";
import { emptyProof, proofBody, proofError } from "./proof-fields";

const refused = (errors: Record<string, string>): HttpError => ({ message: "Refused", statusCode: 403, errors });

describe("the proof a step asks for", () => {
  it("starts with the app's code when two-factor is on, else the password", () => {
    expect(emptyProof(true)).toEqual({ kind: "code", value: "" });
    expect(emptyProof(false)).toEqual({ kind: "password", value: "" });
  });

  it("sends the code without the spaces an app shows in it, and the password exactly as typed", () => {
    expect(proofBody({ kind: "code", value: " 123 456 " })).toEqual({ code: "123456" });
    expect(proofBody({ kind: "password", value: " pass word " })).toEqual({ password: " pass word " });
  });

  it("puts a refusal on the field that was filled, in the web app's words, and leaves others to the alert", () => {
    expect(proofError(refused({ code: "Wrong or already used code" }), { kind: "code", value: "1" })).toMatch(
      /not right, or was used already/,
    );
    expect(proofError(refused({ password: "Wrong password" }), { kind: "password", value: "x" })).toBe(
      "That password is not right.",
    );
    expect(proofError(refused({ password: "Wrong password" }), { kind: "code", value: "1" })).toBeUndefined();
    expect(proofError({ message: "Too many", statusCode: 429 }, { kind: "code", value: "1" })).toBeUndefined();
    expect(proofError(null, { kind: "code", value: "1" })).toBeUndefined();
  });
});
