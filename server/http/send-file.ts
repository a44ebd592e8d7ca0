import type { Response } from "express";
import { HttpError, NotFoundError } from "./errors";

/** Headers set for the file that must not stay on a JSON error answer. */
export const FILE_HEADERS = ["Content-Type", "Content-Disposition", "ETag", "Last-Modified"];

interface SendError extends Error {
  status?: number;
  statusCode?: number;
  code?: string;
}

/**
 * Sends a file from disk with `send` (Range → 206/416, If-None-Match/If-Range against the ETag
 * set beforehand or its own). A failure becomes a JSON error without the file's headers;
 * a client that went away is no error.
 */
export function sendStoredFile(
  res: Response,
  file: string,
  options: { etag?: boolean; lastModified?: boolean; notFound?: string } = {},
): Promise<void> {
  return new Promise((resolve, reject) => {
    const sendOptions = {
      dotfiles: "deny" as const,
      cacheControl: false,
      etag: options.etag ?? false,
      lastModified: options.lastModified ?? true,
    };
    res.sendFile(file, sendOptions, (err?: SendError) => {
      if (!err || res.headersSent || err.code === "ECONNABORTED") return resolve();
      for (const header of FILE_HEADERS) res.removeHeader(header);
      res.set("Cache-Control", "no-store");
      const status = err.status ?? err.statusCode ?? 500;
      if (status === 404 || err.code === "ENOENT") return reject(new NotFoundError(options.notFound));
      // `send` has already set what the client needs (Content-Range on a 416).
      if (status === 416) return reject(new HttpError(416, "Range not satisfiable"));
      if (status === 412) return reject(new HttpError(412, "Precondition failed"));
      reject(err);
    });
  });
}
