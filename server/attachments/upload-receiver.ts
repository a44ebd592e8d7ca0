import crypto from "node:crypto";
import path from "node:path";
import busboy, { type Busboy } from "busboy";
import type { Request, RequestHandler, Response } from "express";
import type { Logger } from "pino";
import type { Config } from "../config";
import { HttpError, ValidationError } from "../http/errors";
import { uploadsTempRoot } from "../storage/paths";
import type { IncomingFile } from "./attachments.service";
import { Reception, type ReceivedFile } from "./reception";

export const MAX_FILES_PER_REQUEST = 200;

/** A client that sends nothing for this long is dropped, so a stalled upload holds no temp file open for long. */
export const UPLOAD_IDLE_TIMEOUT_MS = 15_000;

const MAX_NAME_LENGTH = 255;

const RECEIVED = Symbol("received files");
const RELEASE = Symbol("release received files");
type WithReceived = Request & { [RECEIVED]?: ReceivedFile[] };
type WithRelease = Response & { [RELEASE]?: () => Promise<void> };

// The client is told to hang up: the rest of its body is only drained, never read.
const closing = { Connection: "close" };

function asAnswer(err: unknown): unknown {
  if (err instanceof HttpError || (err as NodeJS.ErrnoException).code) return err;
  return new ValidationError("Malformed multipart body");
}

/**
 * Receives multipart files into a folder of their own under UPLOADS_DIR/.tmp, hashing each on the
 * way. Whatever ends the upload early (a file over the limit, a client gone or stalled, a malformed
 * body) every temp file is closed before that folder is removed, and any answer leaves only after,
 * so a refused or aborted upload leaves nothing behind. A handler that got the files calls `releaseUpload`.
 */
export function receiveUploads(config: Config, logger: Logger): RequestHandler {
  return (req, res, next) => {
    if (!req.is("multipart/form-data")) return next();
    // The client may have gone while the project was checked: its 'close' came before anyone listened.
    if (req.destroyed || req.socket.destroyed) return void req.resume();
    let parser: Busboy;
    try {
      parser = busboy({
        headers: req.headers,
        // Names are kept exactly as sent (only in the database); browsers send UTF-8.
        preservePath: true,
        defParamCharset: "utf8",
        // Both one over the cap: busboy signals its limit on reaching it, and a request with too many
        // files must be seen (and refused) rather than silently cut short.
        limits: { fileSize: config.maxUploadBytes + 1, files: MAX_FILES_PER_REQUEST + 1, fields: 50, fieldSize: 64 * 1024 },
      });
    } catch {
      return next(new ValidationError("Malformed multipart body"));
    }
    const reception = new Reception(path.join(uploadsTempRoot(config), crypto.randomBytes(12).toString("hex")), logger);
    let settled = false;

    const idle = setTimeout(() => fail(new HttpError(408, "Upload timed out", undefined, closing)), UPLOAD_IDLE_TIMEOUT_MS);
    const onData = () => idle.refresh();
    const onClose = () => {
      if (!req.complete) fail();
    };
    const settle = () => {
      settled = true;
      clearTimeout(idle);
      req.off("data", onData);
      req.off("close", onClose);
    };

    /** Ends the upload without handing files over; `error` is answered once the files are gone. */
    function fail(error?: unknown) {
      if (settled) return;
      settle();
      req.unpipe(parser);
      parser.destroy();
      // Drained so the client, if still there, reads the answer instead of a reset.
      req.resume();
      void reception.discard().then(() => {
        if (error && !res.headersSent) next(asAnswer(error));
      });
    }

    const handOver = () => {
      if (settled) return;
      settle();
      // An empty file input of a form arrives as a part without name or content: it is no upload.
      (req as WithReceived)[RECEIVED] = reception.files.filter((f) => f.originalName !== "" || f.size > 0);
      (res as WithRelease)[RELEASE] = () => reception.discard();
      next();
    };

    parser.on("file", (field, source, info) => {
      if (settled) return void source.resume();
      source.once("limit", () => fail(new HttpError(413, "File too large", undefined, closing)));
      const name = (info.filename ?? "").slice(0, MAX_NAME_LENGTH);
      reception.receive(field, name, source).catch(fail);
    });
    parser.on("error", fail);
    parser.on("close", () => {
      if (!settled) reception.written().then(handOver, fail);
    });
    req.on("close", onClose);
    reception.ready.then(() => {
      if (settled) return;
      req.pipe(parser);
      // Only now: a data listener alone would set the body flowing before the parser is there.
      req.on("data", onData);
    }, fail);
  };
}

/** Removes what is left of a received upload; call once the files were stored or refused. Never throws. */
export async function releaseUpload(res: Response): Promise<void> {
  await (res as WithRelease)[RELEASE]?.();
}

function filesIn(req: Request, fields: string[]): IncomingFile[] {
  return ((req as WithReceived)[RECEIVED] ?? [])
    .filter((f) => fields.includes(f.field))
    .map(({ tempFile, originalName, size, checksum }) => ({ tempFile, originalName, size, checksum }));
}

/** The one file of field `file`. */
export function singleUpload(req: Request): IncomingFile {
  const files = filesIn(req, ["file"]);
  if (files.length === 0) throw new ValidationError("No file uploaded");
  if (files.length > 1) throw new ValidationError("Send one file in field file, or use upload-multiple");
  return files[0];
}

/** The files of the repeated field `files`. */
export function multipleUploads(req: Request): IncomingFile[] {
  const files = filesIn(req, ["files", "files[]"]);
  if (files.length === 0) throw new ValidationError("No file uploaded");
  if (files.length > MAX_FILES_PER_REQUEST) throw new ValidationError(`At most ${MAX_FILES_PER_REQUEST} files per upload`);
  return files;
}
