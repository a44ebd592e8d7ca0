const SIZE_UNITS = ["B", "KB", "MB", "GB", "TB"];

/** As the web app, the delivery page and the mails show sizes: 1024-based with one decimal, 512 B, 1.5 KB, 3.2 MB. */
export function formatFileSize(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes < 1024) return `${Math.max(0, Math.round(bytes || 0))} B`;
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < SIZE_UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${value.toFixed(1)} ${SIZE_UNITS[unit]}`;
}
