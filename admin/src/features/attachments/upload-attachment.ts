import type { HttpError } from "@refinedev/core";
import { http } from "../../providers/http";
import type { Attachment } from "../../../../api/types";
import { UploadFailure } from "./upload-queue-store";
import { t } from "../../i18n";

// The API's 30 s timeout is for calls; a 10 MB photo on a slow uplink needs longer.
const UPLOAD_TIMEOUT_MS = 10 * 60_000;

/** One file, one request, with progress in percent. */
export async function uploadAttachment(
  projectId: number,
  file: File,
  onProgress: (percent: number) => void,
  signal?: AbortSignal,
): Promise<Attachment> {
  const body = new FormData();
  body.append("file", file, file.name);
  try {
    const { data } = await http.post<Attachment>(`/attachments/projects/${projectId}/upload`, body, {
      timeout: UPLOAD_TIMEOUT_MS,
      signal,
      onUploadProgress: (event) => {
        const total = event.total ?? file.size;
        if (total > 0) onProgress(Math.min(100, Math.round((event.loaded * 100) / total)));
      },
    });
    return data;
  } catch (error) {
    const status = (error as Partial<HttpError>)?.statusCode;
    throw new UploadFailure(uploadErrorMessage(error as HttpError), isRetryable(status));
  }
}

/**
 * Whether sending the same file again may succeed: after a dropped connection, a timeout, a busy
 * or failing server (a full disk included, once space is freed), or a project published
 * meanwhile; not when the file itself was refused, the project is gone or the session ended.
 */
export function isRetryable(status: number | undefined): boolean {
  if (!status) return true;
  return status === 408 || status === 409 || status === 429 || status >= 500;
}

/** Spec section 8: what an upload row shows when the upload failed. */
export function uploadErrorMessage(error: Partial<HttpError> | undefined): string {
  const status = error?.statusCode;
  if (status === 401) {
    console.error("Upload refused: the access token has expired or is invalid");
    return t("attachments.signInAgain");
  }
  if (status === 413) return t("attachments.fileTooLarge");
  if (!status) return t("attachments.uploadFailed");
  // The shared client falls back to "API request failed: ..." when the answer had no message.
  const message = error?.message;
  if (message && !error?.withoutServerMessage) return message;
  return t("attachments.uploadFailedStatus", { status });
}
