import type { OutgoingHttpHeaders, ServerResponse } from "node:http";

const CONTENT_RANGE = /^bytes (\d+)-(\d+)\/(\d+)$/;

/**
 * Watches the body bytes a file response hands to the connection and reports them when the
 * response ends, finished or cut off: `[start, end)` of a `size`-byte file, from the status and
 * Content-Range the file sender chose. A response with no body bytes (HEAD, 304, 416) reports nothing.
 * Bytes still in the kernel's buffers when a client hangs up count as sent; a resumed download
 * asks for them again, so they can only overlap, never fake a byte that was never requested.
 */
export function onDeliveredBytes(
  res: ServerResponse,
  report: (start: number, end: number, size: number) => void,
): void {
  let start = -1;
  let size = 0;
  let sent = 0;
  // Headers given to writeHead() alone are not readable with getHeader() afterwards.
  let head: OutgoingHttpHeaders = {};
  const header = (name: string) => res.getHeader(name) ?? head[name];
  const begin = () => {
    if (start >= 0) return;
    const range = header("Content-Range");
    const match = typeof range === "string" ? CONTENT_RANGE.exec(range) : null;
    if (res.statusCode === 206 && match) {
      start = Number(match[1]);
      size = Number(match[3]);
    } else if (res.statusCode === 200) {
      start = 0;
      size = Number(header("Content-Length"));
    }
  };
  const count = (chunk: unknown) => {
    begin();
    if (start >= 0 && (Buffer.isBuffer(chunk) || typeof chunk === "string")) sent += Buffer.byteLength(chunk);
  };
  const writeHead = res.writeHead;
  const write = res.write;
  const end = res.end;
  res.writeHead = function (this: ServerResponse, status: number, ...rest: unknown[]) {
    const headers = rest.find((arg) => typeof arg === "object" && arg !== null && !Array.isArray(arg));
    if (headers) head = headers as OutgoingHttpHeaders;
    return (writeHead as (...args: unknown[]) => ServerResponse).call(this, status, ...rest);
  } as ServerResponse["writeHead"];
  res.write = function (this: ServerResponse, chunk: unknown, ...rest: unknown[]) {
    count(chunk);
    return (write as (...args: unknown[]) => boolean).call(this, chunk, ...rest);
  } as ServerResponse["write"];
  res.end = function (this: ServerResponse, chunk?: unknown, ...rest: unknown[]) {
    if (typeof chunk !== "function") count(chunk);
    return (end as (...args: unknown[]) => ServerResponse).call(this, chunk, ...rest);
  } as ServerResponse["end"];
  res.once("close", () => {
    if (start >= 0 && sent > 0 && Number.isFinite(size)) report(start, start + sent, size);
  });
}
