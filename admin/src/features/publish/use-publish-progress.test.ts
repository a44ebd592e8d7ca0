import { describe, expect, it } from "vitest";
import { applyPublishEvent, type PublishProgress } from "./use-publish-progress";

const idle: PublishProgress = { active: false, progress: 0, error: null, connectionError: null };

describe("applyPublishEvent", () => {
  it("starts publishing and clears an earlier error", () => {
    const failedBefore = { ...idle, error: "Disk full" };
    expect(applyPublishEvent(failedBefore, "publish_started", { progress: 0 })).toEqual({ ...idle, active: true });
  });

  it("follows the progress value", () => {
    const started = applyPublishEvent(idle, "publish_started", {});
    expect(applyPublishEvent(started, "publish_progress", { progress: 42 })).toMatchObject({
      active: true,
      progress: 42,
    });
  });

  it("ends at 100 when completed", () => {
    const halfway = { ...idle, active: true, progress: 50 };
    expect(applyPublishEvent(halfway, "publish_completed", { progress: 100 })).toMatchObject({
      active: false,
      progress: 100,
    });
  });

  it("ends with the reason, or 'Failed' without one", () => {
    const running = { ...idle, active: true, progress: 30 };
    expect(applyPublishEvent(running, "publish_failed", { error: "Attachment file missing" })).toMatchObject({
      active: false,
      error: "Attachment file missing",
    });
    expect(applyPublishEvent(running, "publish_failed", {})).toMatchObject({ active: false, error: "Failed" });
  });

  it("ignores event types it does not know", () => {
    expect(applyPublishEvent(idle, "publish_paused", { progress: 80 })).toBe(idle);
  });
});
