import crypto from "node:crypto";
import path from "node:path";
import type { Readable, Writable } from "node:stream";
import type { Request, RequestHandler, Response } from "express";
import fileUpload, { type UploadedFile } from "express-fileupload";
import type { Logger } from "pino";
import type { Config } from "../config";
import { releaseBodyDeadline } from "../http/body-timeout";
import { HttpError, ValidationError } from "../http/errors";
import { PRIVATE_MODES } from "../storage/file-modes";
import { uploadsTempRoot } from "../storage/paths";
import type { IncomingFile } from "./attachments.service";
import { ReceiveFolder } from "./reception";

export const MAX_FILES_PER_REQUEST = 200;

/** express-fileupload's own option (its default is 0644), which its type definitions do not list. */
const privateTempFiles = { tempFilePermissions: PRIVATE_MODES.file };

/** A file that sends nothing for this long is given up, so a stalled upload holds no temp file open for long. */
export const UPLOAD_TIMEOUT_MS = 15_000;

const FOLDER = Symbol("upload receive folder");
type WithFolder = Response & { [FOLDER]?: ReceiveFolder };

// The client is told to hang up: the rest of its body is only drained, never read.
const closing = { Connection: "close" };

/** What express-fileupload pipes the request into: busboy's multipart parser. */
type Parser = Writable & { on(event: "file", listener: (field: string, file: Readable) => void): Parser };

function asAnswer(err: unknown): unknown {
  if (err instanceof HttpError || (err as NodeJS.ErrnoException).code) return err;
  if (err instanceof Error && err.message.startsWith("Upload timeout"))
    return new HttpError(408, "Upload timed out", undefined, closing);
  return new ValidationError("Malformed multipart body");
}

/**
 * Receives multipart files with express-fileupload into a folder of their own under
 * UPLOADS_DIR/.tmp (sha256 by the library). Whatever ends an upload early (a file over the limit,
 * a client gone or stalled, a malformed body) the parser is stopped, so no later part gets a temp
 * file, and the folder is removed before any answer leaves and again once the library's write
 * streams have settled, so a refused or aborted upload leaves nothing behind. A handler that got
 * the files calls `releaseUpload`.
 */
export function receiveUploads(config: Config, logger: Logger): RequestHandler {
  return (req, res, next) => {
    if (!req.is("multipart/form-data")) return next();
    // The client may have gone while the project was checked: its 'close' came before anyone listened.
    if (req.destroyed || req.socket.destroyed) return void req.resume();
    // Received under UPLOAD_TIMEOUT_MS of silence instead: a large upload may take minutes.
    releaseBodyDeadline(req);
    const folder = new ReceiveFolder(
      path.join(uploadsTempRoot(config), crypto.randomBytes(12).toString("hex")),
      logger,
      UPLOAD_TIMEOUT_MS,
    );
    let settled = false;
    let handedOver = false;
    let failed = false;
    let parserFinished = false;
    let fileError: unknown;

    // The library pipes the request into its parser but keeps no handle to it; one is kept here to
    // stop it: an active file stream then errors out and closes at once, not at the upload timeout.
    let parser: Parser | undefined;
    let parserStopped = false;
    const pipe = req.pipe.bind(req);
    req.pipe = ((destination, options) => {
      parser = destination as unknown as Parser;
      // Both before the library's own listeners, which call back at once: the outcome is known by then.
      parser.prependOnceListener("finish", () => (parserFinished = true));
      parser.on("file", (_field, file) => file.prependListener("error", (err) => (fileError ??= err)));
      // Ahead of the library, which would make the folder under the process's umask.
      parser.prependListener("file", () => folder.make());
      return pipe(destination, options);
    }) as typeof req.pipe;

    const stopParsing = () => {
      req.unpipe(parser);
      // Drained so a client still there reads the answer instead of a reset.
      req.resume();
      if (!parser || parserStopped) return;
      parserStopped = true;
      const stopped = parser;
      // Parts still in a chunk being parsed would each get a temp file, recreating a removed folder.
      stopped.removeAllListeners("file");
      stopped.on("file", (_field, file) => file.on("error", () => undefined).resume());
      // Not from inside the parser's own events: it goes on with the part it is on.
      process.nextTick(() => stopped.destroy());
    };

    /** The upload will not be handed over: no more parts, folder removed now and again later. */
    const fail = (): Promise<void> => {
      failed = true;
      stopParsing();
      return folder.discard();
    };

    res.on("close", () => {
      if (!req.complete && !handedOver) void fail();
    });

    const middleware = fileUpload({
      ...privateTempFiles,
      useTempFiles: true,
      tempFileDir: folder.dir,
      hashAlgorithm: "sha256",
      uploadTimeout: UPLOAD_TIMEOUT_MS,
      // Names are kept exactly as sent (only in the database); browsers send UTF-8.
      preservePath: true,
      defParamCharset: "utf8",
      // Both one over the cap: busboy signals its limit on reaching it, and a request with too many
      // files must be seen (and refused) rather than silently cut short.
      limits: {
        fileSize: config.maxUploadBytes + 1,
        files: MAX_FILES_PER_REQUEST + 1,
        fields: 50,
        fieldSize: 64 * 1024,
      },
      abortOnLimit: true,
      limitHandler: (_req, limitRes) => {
        // Runs before the library ends the request: the files must be gone before the answer leaves.
        void fail();
        folder.removeNow();
        limitRes.status(413).set(closing).json({ statusCode: 413, message: "File too large" });
      },
    });

    // Called by the library once the body is parsed and written, and also (possibly more than once)
    // when a part or the parser failed: only the first call decides, later ones remove again.
    const done = (err?: unknown) => {
      if (settled) {
        if (failed) void folder.remove();
        return;
      }
      settled = true;
      const failure = err ?? fileError ?? (parserFinished ? undefined : new Error("parser stopped early"));
      if (res.headersSent || failed || failure || !req.complete) {
        const answer =
          res.headersSent || failed ? undefined : asAnswer(failure ?? new HttpError(400, "Upload was interrupted"));
        void fail().then(() => {
          if (answer && !res.headersSent) next(answer);
        });
        return;
      }
      handedOver = true;
      (res as WithFolder)[FOLDER] = folder;
      next();
    };
    try {
      middleware(req, res, done);
    } catch {
      done(new Error("malformed"));
    }
  };
}

/** Removes what is left of a received upload; call once the files were stored or refused. Never throws. */
export async function releaseUpload(res: Response): Promise<void> {
  await (res as WithFolder)[FOLDER]?.remove();
}

function toIncoming(file: UploadedFile): IncomingFile {
  // With hashAlgorithm sha256 the library's `md5` holds the sha256.
  return { tempFile: file.tempFilePath, originalName: file.name, size: file.size, checksum: file.md5 };
}

function filesIn(req: Request, fields: string[]): UploadedFile[] {
  return fields.flatMap((field) => {
    const value = req.files?.[field];
    return value === undefined ? [] : Array.isArray(value) ? value : [value];
  });
}

/** The one file of field `file`. */
export function singleUpload(req: Request): IncomingFile {
  const files = filesIn(req, ["file"]);
  if (files.length === 0) throw new ValidationError("No file uploaded");
  if (files.length > 1) throw new ValidationError("Send one file in field file, or use upload-multiple");
  return toIncoming(files[0]);
}

/** The files of the repeated field `files`. */
export function multipleUploads(req: Request): IncomingFile[] {
  const files = filesIn(req, ["files", "files[]"]);
  if (files.length === 0) throw new ValidationError("No file uploaded");
  if (files.length > MAX_FILES_PER_REQUEST)
    throw new ValidationError(`At most ${MAX_FILES_PER_REQUEST} files per upload`);
  return files.map(toIncoming);
}
