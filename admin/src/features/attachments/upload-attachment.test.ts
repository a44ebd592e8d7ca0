import { describe, expect, it } from "vitest";
import { uploadErrorMessage } from "./upload-attachment";

describe("uploadErrorMessage", () => {
  it("asks to log in again on 401", () => {
    expect(uploadErrorMessage({ statusCode: 401, message: "Unauthorized" })).toBe(
      "Authentication required - please log in again",
    );
  });

  it("says 'File too large' on 413", () => {
    expect(uploadErrorMessage({ statusCode: 413, message: "Payload Too Large" })).toBe("File too large");
  });

  it("shows the server's message for other failures", () => {
    expect(uploadErrorMessage({ statusCode: 415, message: "Unsupported file type" })).toBe("Unsupported file type");
  });

  it("names the status when the server gave no message", () => {
    expect(uploadErrorMessage({ statusCode: 502, message: "API request failed: 502 Bad Gateway" })).toBe(
      "Upload failed with status 502",
    );
  });

  it("falls back to 'Upload failed' when the server was not reached", () => {
    expect(uploadErrorMessage({ statusCode: 0, message: "Could not reach the server" })).toBe("Upload failed");
    expect(uploadErrorMessage(undefined)).toBe("Upload failed");
  });
});
