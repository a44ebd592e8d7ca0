import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { Request, RequestHandler, Response } from "express";
import fileUpload, { type UploadedFile } from "express-fileupload";
import type { Config } from "../config";
import { HttpError, ValidationError } from "../http/errors";
import { removeQuietly, uploadsTempRoot } from "../storage/paths";
import type { IncomingFile } from "./attachments.service";

export const MAX_FILES_PER_REQUEST = 200;

const TEMP_DIR = Symbol("upload temp dir");
type WithTempDir = Response & { [TEMP_DIR]?: string };

/**
 * Receives multipart files into a folder of their own under UPLOADS_DIR/.tmp. Whatever happens
 * (file over the limit, client gone, malformed body) that folder is removed, so a refused or
 * aborted upload leaves nothing behind; a handler that got the files removes it with `releaseUpload`.
 */
export function receiveUploads(config: Config): RequestHandler {
  return (req, res, next) => {
    if (!req.is("multipart/form-data")) return next();
    const tempDir = path.join(uploadsTempRoot(config), crypto.randomBytes(12).toString("hex"));
    let handedOver = false;
    let settled = false;
    // The library pipes the request into its multipart parser but keeps no handle to it; one is kept
    // here so a client that goes away mid-file closes the open temp file now, not at the upload timeout.
    let parser: (NodeJS.WritableStream & { destroy?(err: Error): void }) | undefined;
    const pipe = req.pipe.bind(req);
    req.pipe = ((destination, options) => {
      parser = destination as typeof parser;
      return pipe(destination, options);
    }) as typeof req.pipe;
    res.on("close", () => {
      if (!req.complete) parser?.destroy?.(new Error("Upload aborted"));
      if (!handedOver) void removeQuietly(tempDir);
    });
    const middleware = fileUpload({
      useTempFiles: true,
      tempFileDir: tempDir,
      hashAlgorithm: "sha256",
      // Names are kept exactly as sent (only in the database); browsers send UTF-8.
      preservePath: true,
      defParamCharset: "utf8",
      // Both one over the cap: busboy signals its limit on reaching it, and a request with too many
      // files must be seen (and refused) rather than silently cut short.
      limits: { fileSize: config.maxUploadBytes + 1, files: MAX_FILES_PER_REQUEST + 1, fields: 50, fieldSize: 64 * 1024 },
      abortOnLimit: true,
      limitHandler: (_req, limitRes) => {
        // Runs before the library ends the request: the files must be gone before the answer leaves.
        // An open temp file is unlinked here and closed by the library right after.
        fs.rmSync(tempDir, { recursive: true, force: true });
        limitRes.status(413).set("Connection", "close").json({ statusCode: 413, message: "File too large" });
      },
    });
    // The answer to a refused upload leaves only once its files are gone.
    const refuse = (error: unknown) => void removeQuietly(tempDir).then(() => next(error), next);
    const done = (err?: unknown) => {
      // The library may call back twice (an upload timeout, then the end of the body).
      if (settled) return;
      settled = true;
      if (res.headersSent) return void removeQuietly(tempDir);
      if (err) return refuse((err as NodeJS.ErrnoException).code ? err : new ValidationError("Malformed multipart body"));
      if (!req.complete) return refuse(new HttpError(400, "Upload was interrupted"));
      handedOver = true;
      (res as WithTempDir)[TEMP_DIR] = tempDir;
      next();
    };
    try {
      middleware(req, res, done);
    } catch {
      done(new Error("malformed"));
    }
  };
}

/** Removes what is left of a received upload; call once the files were stored or refused. */
export async function releaseUpload(res: Response): Promise<void> {
  const dir = (res as WithTempDir)[TEMP_DIR];
  if (dir) await removeQuietly(dir);
}

function toIncoming(file: UploadedFile): IncomingFile {
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
  if (files.length > MAX_FILES_PER_REQUEST) throw new ValidationError(`At most ${MAX_FILES_PER_REQUEST} files per upload`);
  return files.map(toIncoming);
}
