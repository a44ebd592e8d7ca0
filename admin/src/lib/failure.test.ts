import { describe, expect, it } from "vitest";
import { failureMessage } from "./failure";

describe("a failed action's message", () => {
  it("is the server's message", () => {
    expect(failureMessage({ statusCode: 500, message: "Database is locked" })).toBe("Database is locked");
    expect(failureMessage({ statusCode: 0, message: "Could not reach the server" })).toBe("Could not reach the server");
  });

  it("is left to the fields when every field named is on the form", () => {
    expect(
      failureMessage({ statusCode: 400, message: "Name is required", errors: { name: "Name is required" } }, ["name"]),
    ).toBeNull();
  });

  it("is shown when the server names a field the form does not have", () => {
    expect(
      failureMessage({ statusCode: 404, message: "Client not found", errors: { clientId: "Client not found" } }, [
        "name",
      ]),
    ).toBe("Client not found");
  });

  it("says something when there is no message at all", () => {
    expect(failureMessage(undefined)).toBe("Something went wrong; please try again");
  });
});
