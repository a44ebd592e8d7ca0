// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from "vitest";
import { withStorageLock } from "./storage-lock";

afterEach(() => {
  localStorage.clear();
  vi.restoreAllMocks();
});

const tick = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("the lock tabs share through localStorage", () => {
  it("runs tasks that ask at once one after another, never side by side", async () => {
    const log: string[] = [];
    const task = (name: string) => async () => {
      log.push(`${name} starts`);
      await tick(30);
      log.push(`${name} ends`);
      return name;
    };
    const results = await Promise.all(["a", "b", "c"].map((name) => withStorageLock("refresh", task(name))));
    expect(results).toEqual(["a", "b", "c"]);
    for (let i = 0; i < log.length; i += 2) {
      expect(log[i]).toMatch(/starts$/);
      expect(log[i + 1]).toBe(log[i].replace("starts", "ends"));
    }
    expect(localStorage.getItem("photodrop.lock.refresh")).toBeNull();
  });

  it("releases the lock when the task fails", async () => {
    await expect(withStorageLock("refresh", () => Promise.reject(new Error("offline")))).rejects.toThrow("offline");
    expect(localStorage.getItem("photodrop.lock.refresh")).toBeNull();
    expect(await withStorageLock("refresh", async () => "next")).toBe("next");
  });

  it("waits for a live claim of another tab, and takes over one whose tab was closed", async () => {
    localStorage.setItem("photodrop.lock.refresh", JSON.stringify({ owner: "other tab", until: Date.now() + 200 }));
    const started = Date.now();
    await withStorageLock("refresh", async () => undefined);
    expect(Date.now() - started).toBeGreaterThanOrEqual(200);
  });

  it("runs the task at once where storage is refused", async () => {
    vi.spyOn(Storage.prototype, "setItem").mockImplementation(() => {
      throw new Error("SecurityError");
    });
    expect(await withStorageLock("refresh", async () => "ran")).toBe("ran");
  });
});
