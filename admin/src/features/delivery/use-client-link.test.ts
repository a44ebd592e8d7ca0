// @vitest-environment jsdom
import { describe, expect, it } from "vitest";
import { clientLink } from "./use-client-link";

describe("the client's link", () => {
  it("is under PUBLIC_URL when the server has one, as the mails are", () => {
    expect(clientLink("/d/abc", "https://photos.example.com")).toBe("https://photos.example.com/d/abc");
    expect(clientLink("/d/abc", "https://example.com/photos")).toBe("https://example.com/photos/d/abc");
  });

  it("is the browser's address without one", () => {
    expect(clientLink("/d/abc", null)).toBe(`${window.location.origin}/d/abc`);
  });
});
