// @vitest-environment jsdom
import { StrictMode } from "react";
import { act, renderHook, waitFor } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { makeImage, setPublishStatus } from "../../../../server/attachments/test-fixtures";
import { insertProjectRow } from "../../../../server/test/rows";
import { webAppServerPerFile } from "../../test/web-app-server";
import { useUploadQueue } from "./use-upload-queue";

const server = webAppServerPerFile({ signIn: true });

const LIMIT = 10 * 1024 * 1024;
const photo = async (name: string) => new File([new Uint8Array(await makeImage("png"))], name, { type: "image/png" });
const rowsOf = (projectId: number) => server.t.ctx.db("attachments").where({ project_id: projectId });

describe("the upload queue against the real API", () => {
  it("uploads three files at a time and starts the next as one finishes", async () => {
    const projectId = await insertProjectRow(server.t.ctx, { name: "Queue of five" });
    const { result } = renderHook(() => useUploadQueue(projectId, LIMIT));
    const files = await Promise.all(["a", "b", "c", "d", "e"].map((n) => photo(`${n}.png`)));
    act(() => result.current.add(files));
    const count = (status: string) => result.current.items.filter((i) => i.status === status).length;
    await waitFor(() => expect(count("uploading")).toBe(3));
    expect(count("pending")).toBe(2);
    await waitFor(() => expect(count("completed")).toBe(5), { timeout: 15_000 });
    expect((await rowsOf(projectId)).map((r) => r.original_name).sort()).toEqual(files.map((f) => f.name));
  });

  it("uploads in React's StrictMode too, where the component is mounted, unmounted and mounted again", async () => {
    const projectId = await insertProjectRow(server.t.ctx, { name: "Strict mode" });
    const { result } = renderHook(() => useUploadQueue(projectId, LIMIT), { wrapper: StrictMode });
    const file = await photo("strict.png");
    act(() => result.current.add([file]));
    await waitFor(() => expect(result.current.counts.completed).toBe(1), { timeout: 15_000 });
    expect((await rowsOf(projectId)).map((r) => r.original_name)).toEqual(["strict.png"]);
  });

  it("names a refused file with its reason and never sends it, nor offers a retry", async () => {
    const projectId = await insertProjectRow(server.t.ctx, { name: "Refused in the browser" });
    const { result } = renderHook(() => useUploadQueue(projectId, LIMIT));
    const notes = new File(["minutes of the meeting"], "notes.txt", { type: "text/plain" });
    const huge = new File([new Uint8Array(LIMIT + 1)], "huge.jpg", { type: "image/jpeg" });
    const kept = await photo("kept.png");
    act(() => result.current.add([notes, huge, kept]));
    await waitFor(() => expect(result.current.counts.completed).toBe(1));
    const [refusedNotes, refusedHuge] = result.current.items;
    expect(refusedNotes).toMatchObject({
      status: "error",
      retryable: false,
      error: expect.stringMatching(/^Unsupported file type/),
    });
    expect(refusedHuge).toMatchObject({
      status: "error",
      retryable: false,
      error: expect.stringMatching(/^File too large/),
    });
    act(() => result.current.retry(refusedNotes.id));
    expect(result.current.items[0].status).toBe("error");
    expect((await rowsOf(projectId)).map((r) => r.original_name)).toEqual(["kept.png"]);
  });

  it("shows the server's refusal of a file the browser let through, without a retry", async () => {
    const projectId = await insertProjectRow(server.t.ctx, { name: "Refused by the server" });
    const { result } = renderHook(() => useUploadQueue(projectId, LIMIT));
    const png = await makeImage("png");
    const cut = new File([new Uint8Array(png.subarray(0, png.length - 20))], "cut.png", { type: "image/png" });
    act(() => result.current.add([cut]));
    await waitFor(() => expect(result.current.items[0]?.status).toBe("error"));
    expect(result.current.items[0]).toMatchObject({ error: "Image is damaged or incomplete", retryable: false });
    expect(await rowsOf(projectId)).toEqual([]);
  });

  it("retries a failed upload with the same file once the project takes uploads again", async () => {
    const projectId = await insertProjectRow(server.t.ctx, { name: "Retry" });
    await setPublishStatus(server.t.ctx, projectId, "published");
    const file = await photo("retry-me.png");
    const { result } = renderHook(() => useUploadQueue(projectId, LIMIT));
    act(() => result.current.add([file]));
    await waitFor(() => expect(result.current.items[0]?.status).toBe("error"));
    expect(result.current.items[0]).toMatchObject({ error: "Project is published", retryable: true });
    await setPublishStatus(server.t.ctx, projectId, "draft");
    act(() => result.current.retry(result.current.items[0].id));
    await waitFor(() => expect(result.current.items[0]?.status).toBe("completed"));
    expect((await rowsOf(projectId)).map((r) => r.original_name)).toEqual(["retry-me.png"]);
  });
});
