/**
 * Why an upload request was not accepted, from its answer's status (each refusal has its own
 * status in contract.md); `undefined` means the client went away before an answer.
 * Answers undefined for an accepted upload.
 */
export function uploadRefusalReason(status: number | undefined): string | undefined {
  if (status === undefined) return "aborted";
  if (status < 400) return undefined;
  switch (status) {
    case 400:
      return "invalid_request";
    case 401:
    case 403:
      return "not_allowed";
    case 404:
      return "project_not_found";
    case 408:
      return "timeout";
    case 409:
      return "project_locked";
    case 413:
      return "too_large";
    case 415:
      return "not_an_image";
    case 429:
      return "rate_limited";
    case 507:
      return "disk_full";
    default:
      return status >= 500 ? "server_error" : `status_${status}`;
  }
}
