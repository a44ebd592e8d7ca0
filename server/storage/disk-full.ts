/** Error codes of a write that found no room: the file system's, a quota's, sqlite's. */
const CODES = new Set(["ENOSPC", "EDQUOT", "SQLITE_FULL"]);
/** libvips (sharp) reports a failed write in its message only, with the system's wording. */
const MESSAGES = /No space left on device|Disk quota exceeded/i;

/** Whether `err` (or what caused it) is a write that failed because the disk is full. */
export function isDiskFull(err: unknown): boolean {
  for (let e = err, depth = 0; e && typeof e === "object" && depth < 5; e = (e as Error).cause, depth++) {
    const { code, message } = e as { code?: unknown; message?: unknown };
    if ((typeof code === "string" && CODES.has(code)) || (typeof message === "string" && MESSAGES.test(message)))
      return true;
  }
  return false;
}
