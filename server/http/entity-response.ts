import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from "node:http";
import type { Readable } from "node:stream";
import { conditionalAnswer, requestedExtent, type Validators } from "./conditional-get";
import { HttpError, NotFoundError } from "./errors";
import { closeFile, openFile, streamFile } from "./file-stream";

/** One version of a file to answer with: its own headers and what identifies it. */
export interface Entity {
  headers: OutgoingHttpHeaders;
  validators: Validators;
  /** The message of the 404 when the file is gone. */
  notFound?: string;
}

/** Bytes [start, end] (inclusive) of a stored object, opened once the answer is decided. */
export type OpenRange = (range: { start: number; end: number }) => Promise<Readable>;

/** A file the proxy in front sends: the header that names it to the proxy, and the name. */
export interface ProxyBody {
  header: string;
  target: string;
}

/**
 * Where the bytes come from: memory, a file Photodrop reads, a file the proxy in front sends, or
 * an object in object storage of a known size, streamed.
 */
export type Body =
  | { kind: "buffer"; data: Buffer }
  | { kind: "file"; path: string }
  | ({ kind: "proxy" } & ProxyBody)
  | { kind: "stream"; size: number; open: OpenRange };

const withoutContent = (headers: OutgoingHttpHeaders) => {
  const rest = { ...headers };
  delete rest["Content-Type"];
  return rest;
};

/**
 * Answers a GET or HEAD with an entity, as Express's `send` would: 412/304 decided from the
 * validators before any file is touched, then one byte range (206) or the whole (200), or 416. A
 * proxy body hands the file to the proxy (`X-Accel-Redirect`, `X-Sendfile`), which does the ranges.
 * Throws an HttpError (404, 412, 416) before anything is written.
 */
export async function sendEntity(
  req: IncomingMessage,
  res: ServerResponse,
  base: Readonly<OutgoingHttpHeaders>,
  entity: Entity,
  body: Body,
): Promise<void> {
  const condition = conditionalAnswer(req, entity.validators);
  if (condition === 412) throw new HttpError(412, "Precondition failed");
  const headers = entityHeaders(base, entity);
  if (condition === 304) {
    res.writeHead(304, withoutContent(headers));
    res.end();
    return;
  }
  if (body.kind === "proxy") {
    // An empty body of known length: nginx keeps the upstream connection for the next request
    // only when it knows the answer had no body (a chunked one, it closes).
    res.writeHead(200, handOverHeaders(headers, body));
    res.end();
    return;
  }
  if (body.kind === "buffer") {
    const extent = extentOrThrow(req, body.data.length, entity);
    res.writeHead(extent.status, { ...headers, ...extentHeaders(extent, body.data.length) });
    res.end(req.method === "HEAD" ? undefined : body.data.subarray(extent.start, extent.end + 1));
    return;
  }
  if (body.kind === "stream") return sendStream(req, res, headers, entity, body);
  const file = await openFile(body.path).catch((err: NodeJS.ErrnoException) => {
    throw err.code === "ENOENT" || err.code === "ENOTDIR" ? new NotFoundError(entity.notFound) : err;
  });
  let extent: ReturnType<typeof extentOrThrow>;
  try {
    extent = extentOrThrow(req, file.size, entity);
  } catch (err) {
    closeFile(file);
    throw err;
  }
  res.writeHead(extent.status, { ...headers, ...extentHeaders(extent, file.size) });
  if (req.method === "HEAD" || file.size === 0) {
    closeFile(file);
    res.end();
    return;
  }
  streamFile(res, file, extent.start, extent.end);
}

async function sendStream(
  req: IncomingMessage,
  res: ServerResponse,
  headers: OutgoingHttpHeaders,
  entity: Entity,
  body: { size: number; open: OpenRange },
): Promise<void> {
  const extent = extentOrThrow(req, body.size, entity);
  const head = { ...headers, ...extentHeaders(extent, body.size) };
  if (req.method === "HEAD" || body.size === 0) {
    res.writeHead(extent.status, head);
    res.end();
    return;
  }
  // Opened before the head is written, so an object deleted meanwhile is still a 404.
  const stream = await body.open(extent);
  res.writeHead(extent.status, head);
  // A failed read cuts the answer off (its length says it is short); a client gone stops the read.
  stream.once("error", () => res.destroy());
  res.once("close", () => stream.destroy());
  stream.pipe(res);
}

function entityHeaders(base: Readonly<OutgoingHttpHeaders>, entity: Entity): OutgoingHttpHeaders {
  const headers: OutgoingHttpHeaders = { ...base, ...entity.headers, ETag: entity.validators.etag };
  if (entity.validators.lastModified) headers["Last-Modified"] = entity.validators.lastModified;
  return headers;
}

const handOverHeaders = (headers: OutgoingHttpHeaders, body: ProxyBody): OutgoingHttpHeaders => ({
  ...headers,
  [body.header]: body.target,
  "Content-Length": 0,
});

/**
 * The headers `sendEntity` sends to a GET without Range or preconditions: the whole entity's 200
 * (its bytes, or its file handed to the proxy), and its 304.
 */
export function wholeEntityHeaders(
  base: Readonly<OutgoingHttpHeaders>,
  entity: Entity,
  body: Buffer | ProxyBody,
): { ok: OutgoingHttpHeaders; notModified: OutgoingHttpHeaders } {
  const headers = entityHeaders(base, entity);
  const whole = (size: number) => ({ ...headers, ...extentHeaders({ status: 200, start: 0, end: size - 1 }, size) });
  return {
    ok: Buffer.isBuffer(body) ? whole(body.length) : handOverHeaders(headers, body),
    notModified: withoutContent(headers),
  };
}

function extentOrThrow(req: IncomingMessage, size: number, entity: Entity) {
  const extent = requestedExtent(req, size, entity.validators);
  if (extent.status === 416)
    throw new HttpError(416, "Range not satisfiable", undefined, { "Content-Range": `bytes */${size}` });
  return extent;
}

function extentHeaders(extent: { status: 200 | 206; start: number; end: number }, size: number) {
  const headers: OutgoingHttpHeaders = {
    "Accept-Ranges": "bytes",
    "Content-Length": Math.max(0, extent.end - extent.start + 1),
  };
  if (extent.status === 206) headers["Content-Range"] = `bytes ${extent.start}-${extent.end}/${size}`;
  return headers;
}
