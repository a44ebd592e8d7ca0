import { jpegNameOf } from "../attachments/file-names";

/** A photo's web size (its preview, a JPEG) as a file: `IMG_0103.heic` → `IMG_0103-web.jpg`, apart from the original's name. */
export function webSizeNameOf(originalName: string): string {
  const jpeg = jpegNameOf(originalName);
  const dot = jpeg.lastIndexOf(".");
  return dot > 0 ? `${jpeg.slice(0, dot)}-web${jpeg.slice(dot)}` : `${jpeg}-web.jpg`;
}

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
