import type { OutgoingHttpHeaders, ServerResponse } from "node:http";
import type { Request, Response } from "express";
import type { DownloadAnswer, ObjectStat, ObjectStore } from "../storage/object-store";
import { StorageNotFoundError } from "../storage/object-store";
import { sendEntity, type Body } from "./entity-response";
import { NotFoundError } from "./errors";
import { FILE_HEADERS, sendStoredFile } from "./send-file";

/**
 * What answers a stored object: its file on this machine, or its bytes streamed from object
 * storage by range. Rejects with a NotFoundError (`notFound` its message) when there is none.
 * `known`, the object's size and time when the caller has them, saves asking the storage.
 */
export async function objectBody(
  store: ObjectStore,
  key: string,
  notFound?: string,
  known?: ObjectStat,
): Promise<{ kind: "file"; path: string } | (Body & { kind: "stream"; mtime: Date })> {
  const file = store.localFile(key);
  if (file) return { kind: "file", path: file };
  const stat = known ?? (await store.stat(key));
  if (!stat) throw new NotFoundError(notFound);
  return {
    kind: "stream",
    size: stat.size,
    mtime: stat.mtime,
    open: (range) =>
      store.get(key, range).catch((err: unknown) => {
        throw err instanceof StorageNotFoundError ? new NotFoundError(notFound) : err;
      }),
  };
}

/**
 * Sends a stored object from an Express route whose headers (type, ETag, disposition) are set:
 * a file on disk through `send` as ever, an object in object storage streamed with the same
 * Range, If-None-Match and Last-Modified answers. A failure becomes a JSON error without the
 * object's headers.
 */
export async function sendStoredObject(
  req: Request,
  res: Response,
  store: ObjectStore,
  key: string,
  options: { notFound?: string } = {},
): Promise<void> {
  try {
    const body = await objectBody(store, key, options.notFound);
    if (body.kind === "file") return await sendStoredFile(res, body.path, options);
    const etag = res.get("ETag") ?? `W/"${body.size.toString(16)}-${body.mtime.getTime().toString(16)}"`;
    await sendEntity(req, res, {}, { headers: {}, validators: { etag, lastModified: body.mtime.toUTCString() } }, body);
  } catch (err) {
    if (res.headersSent) throw err;
    for (const header of FILE_HEADERS) res.removeHeader(header);
    res.set("Cache-Control", "no-store");
    throw err;
  }
}

/**
 * With S3_PRESIGNED_DOWNLOADS, answers a download (after its access checks) with a redirect to a
 * short-lived link at the storage, which then sends the bytes with `answer`'s headers; false when
 * the file goes through Photodrop. A missing object is a 404 here, not the storage's error page.
 */
export async function redirectToStorage(
  res: ServerResponse,
  store: ObjectStore,
  key: string,
  answer: DownloadAnswer,
  options: { notFound?: string; headers?: Readonly<OutgoingHttpHeaders> } = {},
): Promise<boolean> {
  const url = await store.presignedDownload(key, answer).catch((err: unknown) => {
    throw err instanceof StorageNotFoundError ? new NotFoundError(options.notFound) : err;
  });
  if (!url) return false;
  for (const header of FILE_HEADERS) res.removeHeader(header);
  // The link is the client's for its short life only: nothing may keep the redirect.
  res.writeHead(302, { ...options.headers, Location: url, "Cache-Control": "no-store", "Content-Length": 0 });
  res.end();
  return true;
}
