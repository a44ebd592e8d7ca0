import { describe, expect, it } from "vitest";
import type { Attachment } from "../../../../api/types";
import { UploadFailure, UploadQueueStore } from "./upload-queue-store";

/** Uploads that end when the test says, so what runs at once can be watched. */
function controlledUploads() {
  const running = new Map<string, { resolve: () => void; reject: (e: Error) => void }>();
  let most = 0;
  const upload = (file: File) =>
    new Promise<Attachment>((resolve, reject) => {
      running.set(file.name, {
        resolve: () => {
          running.delete(file.name);
          resolve({ id: 1, originalName: file.name } as Attachment);
        },
        reject: (e) => {
          running.delete(file.name);
          reject(e);
        },
      });
      most = Math.max(most, running.size);
    });
  return { upload, running, most: () => most };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));
const files = (n: number) => Array.from({ length: n }, (_, i) => new File(["x"], `photo-${i}.jpg`));

describe("the upload queue's store", () => {
  it("queues 2,000 files at once, sends three at a time in order, and tells listeners once per batch", async () => {
    const uploads = controlledUploads();
    const notices: Array<() => void> = [];
    const store = new UploadQueueStore({
      upload: uploads.upload,
      check: async () => null,
      completedVisibleMs: 0,
      schedule: (notify) => notices.push(notify),
    });
    let heard = 0;
    store.subscribe(() => heard++);
    store.add(files(2_000));
    expect(notices).toHaveLength(1);
    await settle();
    expect([...uploads.running.keys()]).toEqual(["photo-0.jpg", "photo-1.jpg", "photo-2.jpg"]);
    expect(store.getSnapshot().counts).toEqual({ pending: 1_997, uploading: 3, completed: 0, error: 0 });
    notices.splice(0).forEach((notify) => notify());
    expect(heard).toBe(1);

    while (uploads.running.size > 0) {
      for (const { resolve } of [...uploads.running.values()]) resolve();
      await settle();
    }
    expect(uploads.most()).toBe(3);
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(store.getSnapshot().items).toHaveLength(0);
  });

  it("lists a file refused by name at once, one refused by content before sending it, and sends the others", async () => {
    const uploads = controlledUploads();
    const store = new UploadQueueStore({
      upload: uploads.upload,
      precheck: (file) => (file.name === "notes.txt" ? "Unsupported file type" : null),
      check: async (file) => (file.name === "fake.jpg" ? "Not an image" : null),
      schedule: (notify) => notify(),
    });
    store.add([new File(["x"], "notes.txt"), new File(["x"], "fake.jpg"), new File(["x"], "a.jpg")]);
    const [refused] = store.getSnapshot().items;
    expect(refused).toMatchObject({ status: "error", error: "Unsupported file type", retryable: false });
    await settle();
    expect([...uploads.running.keys()]).toEqual(["a.jpg"]);
    expect(store.getSnapshot().items[1]).toMatchObject({ status: "error", error: "Not an image", retryable: false });
    store.retry(refused.id);
    expect(store.getSnapshot().items[0].status).toBe("error");
    store.dispose();
  });

  it("offers a retry only when the failure says one may help", async () => {
    const uploads = controlledUploads();
    const store = new UploadQueueStore({ upload: uploads.upload, check: async () => null, schedule: (n) => n() });
    store.add([new File(["x"], "a.jpg"), new File(["x"], "b.jpg")]);
    await settle();
    uploads.running.get("a.jpg")!.reject(new UploadFailure("Unsupported file type", false));
    uploads.running.get("b.jpg")!.reject(new UploadFailure("The server's disk is full", true));
    await settle();
    const [a, b] = store.getSnapshot().items;
    expect(a).toMatchObject({ status: "error", retryable: false });
    expect(b).toMatchObject({ status: "error", retryable: true, error: "The server's disk is full" });
    store.retry(b.id);
    await settle();
    expect([...uploads.running.keys()]).toEqual(["b.jpg"]);
    store.clearFailed();
    expect(store.getSnapshot().items.map((i) => i.file.name)).toEqual(["b.jpg"]);
    store.dispose();
  });
});
