import { useEffect, useRef, useState, useSyncExternalStore } from "react";
import type { Attachment } from "../../../../api/types";
import { uploadAttachment } from "./upload-attachment";
import { UploadQueueStore } from "./upload-queue-store";
import { refusalByContent, refusalByName } from "./file-checks";

export type { UploadItem, UploadStatus } from "./upload-queue-store";

/** Uploads files to a project, a few at a time, each with its own progress, retry and removal. */
export function useUploadQueue(
  projectId: number,
  maxUploadBytes: number,
  onUploaded?: (attachment: Attachment) => void,
) {
  const latest = useRef({ maxUploadBytes, onUploaded });
  latest.current = { maxUploadBytes, onUploaded };
  const [store] = useState(
    () =>
      new UploadQueueStore({
        upload: (file, onProgress, signal) => uploadAttachment(projectId, file, onProgress, signal),
        precheck: (file) => refusalByName(file, latest.current.maxUploadBytes),
        check: refusalByContent,
        onUploaded: (attachment) => latest.current.onUploaded?.(attachment),
      }),
  );
  useEffect(() => {
    store.resume();
    return () => store.dispose();
  }, [store]);
  const { items, counts } = useSyncExternalStore(store.subscribe, store.getSnapshot);
  // Stable, so the rows drawn for thousands of files re-render only when their own item changes.
  const [actions] = useState(() => ({
    add: (files: readonly File[]) => store.add(files),
    retry: (id: string) => store.retry(id),
    remove: (id: string) => store.remove(id),
    clearFailed: () => store.clearFailed(),
  }));
  return { items, counts, ...actions };
}
