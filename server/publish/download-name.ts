/** A file name for the project's ZIP that every browser and file system accepts. */
export function zipFileName(projectName: string): string {
  const cleaned = projectName
    .normalize("NFC")
    .replace(/\s+/g, " ")
    .replace(/[\u0000-\u001f\u007f<>:"/\\|?*]/g, "_")
    .trim()
    .replace(/[. ]+$/, "")
    .slice(0, 150)
    .trim();
  return `${cleaned || "project"}.zip`;
}

function rfc5987(value: string): string {
  return encodeURIComponent(value).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/**
 * `Content-Disposition: attachment` naming the download after the project: a plain ASCII
 * `filename` for old clients, plus `filename*` (RFC 5987/6266) when the name is not ASCII.
 */
export function attachmentDisposition(projectName: string): string {
  const name = zipFileName(projectName);
  const ascii = name
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/[^\x20-\x7e]/g, "_");
  if (ascii === name) return `attachment; filename="${name}"`;
  return `attachment; filename="${ascii}"; filename*=UTF-8''${rfc5987(name)}`;
}
