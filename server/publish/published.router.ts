import { Router, type NextFunction, type Response } from "express";
import type { AppContext } from "../context";
import { HttpError, NotFoundError } from "../http/errors";
import { PUBLISHED_ZIP_NAME, publishedZipFile } from "../storage/paths";
import { attachmentDisposition } from "./download-name";
import { findPublishedByZipPath } from "./publish.repository";

/** Names the publisher generates: at least 128 random bits in base64url. */

const FILE_HEADERS = ["Content-Type", "Content-Disposition", "ETag", "Last-Modified"];

interface SendError extends Error {
  status?: number;
  statusCode?: number;
  code?: string;
  headers?: Record<string, string>;
}

function onSendDone(res: Response, next: NextFunction) {
  return (err?: SendError) => {
    if (!err || res.headersSent || err.code === "ECONNABORTED") return;
    // Set for the file before send found the error; the JSON answer must not look like the ZIP.
    for (const header of FILE_HEADERS) res.removeHeader(header);
    const status = err.status ?? err.statusCode ?? 500;
    if (status === 404 || err.code === "ENOENT") return next(new NotFoundError());
    // 416 and 412 come with the headers a client needs (Content-Range); anything else is ours.
    if (status >= 400 && status < 500) return next(new HttpError(status, err.message, undefined, err.headers));
    next(err);
  };
}

/**
 * /published/<name>.zip: public delivery of published ZIPs. A name is served only while a
 * published project records it, so unknown, unpublished and crafted names all look the same.
 */
export function publishedRouter(ctx: AppContext): Router {
  const router = Router();

  router.get("/:name", async (req, res, next) => {
    const name = req.params.name;
    if (!PUBLISHED_ZIP_NAME.test(name)) throw new NotFoundError();
    const project = await findPublishedByZipPath(ctx.db, `published/${name}`);
    if (!project) throw new NotFoundError();
    res.sendFile(
      publishedZipFile(ctx.config, name),
      {
        acceptRanges: true,
        etag: true,
        lastModified: true,
        cacheControl: false,
        dotfiles: "deny",
        headers: {
          "Content-Type": "application/zip",
          "Content-Disposition": attachmentDisposition(project.name),
          // The link stops working on unpublish, so caches must ask again each time.
          "Cache-Control": "private, no-cache",
          "X-Robots-Tag": "noindex",
        },
      },
      onSendDone(res, next),
    );
  });

  router.use(() => {
    throw new NotFoundError();
  });

  return router;
}
