import { describe, expect, it } from "vitest";
import { isRetryable, uploadErrorMessage } from "./upload-attachment";

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
    const noMessage = { statusCode: 502, message: "API request failed: 502 Bad Gateway", withoutServerMessage: true };
    expect(uploadErrorMessage(noMessage)).toBe("Upload failed with status 502");
  });

  it("falls back to 'Upload failed' when the server was not reached", () => {
    expect(uploadErrorMessage({ statusCode: 0, message: "Could not reach the server" })).toBe("Upload failed");
    expect(uploadErrorMessage(undefined)).toBe("Upload failed");
  });
});

describe("isRetryable", () => {
  it("offers a retry where sending again may succeed", () => {
    for (const status of [0, undefined, 408, 409, 429, 500, 502, 503, 507]) expect(isRetryable(status)).toBe(true);
  });

  it("offers none where the file or the session was refused", () => {
    for (const status of [400, 401, 403, 404, 413, 415]) expect(isRetryable(status)).toBe(false);
  });
});
