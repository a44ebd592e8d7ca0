import { useCallback, useEffect, useRef, useState } from "react";
import type { Attachment } from "../../../../api/types";
import { uploadAttachment } from "./upload-attachment";

export type UploadStatus = "pending" | "uploading" | "completed" | "error";

export interface UploadItem {
  id: string;
  file: File;
  status: UploadStatus;
  progress: number;
  error?: string;
}

const PARALLEL_UPLOADS = 3;
const COMPLETED_VISIBLE_MS = 2_000;

const newUploadId = () => `${Date.now()}-${Math.random().toString(36).slice(2, 10)}`;

/** Uploads files to a project, a few at a time, each with its own progress, retry and removal. */
export function useUploadQueue(projectId: number, onUploaded?: (attachment: Attachment) => void) {
  const [items, setItems] = useState<UploadItem[]>([]);
  const started = useRef(new Set<string>());
  // Removing a row that is still uploading cancels its request, so the file never becomes an attachment.
  const inFlight = useRef(new Map<string, AbortController>());
  const timers = useRef(new Set<ReturnType<typeof setTimeout>>());
  const onUploadedRef = useRef(onUploaded);
  onUploadedRef.current = onUploaded;

  const patch = useCallback((id: string, change: Partial<UploadItem>) => {
    setItems((current) => current.map((item) => (item.id === id ? { ...item, ...change } : item)));
  }, []);

  const remove = useCallback((id: string) => {
    inFlight.current.get(id)?.abort();
    inFlight.current.delete(id);
    started.current.delete(id);
    setItems((current) => current.filter((item) => item.id !== id));
  }, []);

  useEffect(() => {
    const running = items.filter((item) => item.status === "uploading").length;
    const next = items
      .filter((item) => item.status === "pending" && !started.current.has(item.id))
      .slice(0, PARALLEL_UPLOADS - running);
    for (const item of next) {
      started.current.add(item.id);
      patch(item.id, { status: "uploading", progress: 0, error: undefined });
      const controller = new AbortController();
      inFlight.current.set(item.id, controller);
      uploadAttachment(projectId, item.file, (progress) => patch(item.id, { progress }), controller.signal)
        .then((attachment) => {
          inFlight.current.delete(item.id);
          patch(item.id, { status: "completed", progress: 100 });
          onUploadedRef.current?.(attachment);
          const timer = setTimeout(() => {
            timers.current.delete(timer);
            remove(item.id);
          }, COMPLETED_VISIBLE_MS);
          timers.current.add(timer);
        })
        .catch((error: Error) => {
          inFlight.current.delete(item.id);
          if (controller.signal.aborted) return;
          started.current.delete(item.id);
          patch(item.id, { status: "error", error: error.message || "Upload failed" });
        });
    }
  }, [items, projectId, patch, remove]);

  useEffect(() => {
    const pending = timers.current;
    return () => pending.forEach(clearTimeout);
  }, []);

  const add = useCallback((files: File[]) => {
    const added = files.map((file): UploadItem => ({ id: newUploadId(), file, status: "pending", progress: 0 }));
    setItems((current) => [...current, ...added]);
  }, []);

  const retry = useCallback((id: string) => patch(id, { status: "pending", progress: 0, error: undefined }), [patch]);

  return { items, add, retry, remove };
}
