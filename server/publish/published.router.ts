import { Router } from "express";
import type { AppContext } from "../context";
import { NotFoundError } from "../http/errors";
import { sendStoredFile } from "../http/send-file";
import { PUBLISHED_ZIP_NAME, publishedZipFile } from "../storage/paths";
import { attachmentDisposition } from "./download-name";
import { findPublishedByZipPath } from "./publish.repository";

/**
 * /published/<name>.zip: public delivery of published ZIPs. A name is served only while a
 * published project records it, so unknown, unpublished and crafted names all look the same.
 */
export function publishedRouter(ctx: AppContext): Router {
  const router = Router();

  router.get("/:name", async (req, res) => {
    const name = req.params.name;
    if (!PUBLISHED_ZIP_NAME.test(name)) throw new NotFoundError();
    const project = await findPublishedByZipPath(ctx.db, `published/${name}`);
    if (!project) throw new NotFoundError();
    res.set({
      "Content-Type": "application/zip",
      "Content-Disposition": attachmentDisposition(project.name),
      // The link stops working on unpublish, so caches must ask again each time.
      "Cache-Control": "private, no-cache",
      "X-Robots-Tag": "noindex",
    });
    await sendStoredFile(res, publishedZipFile(ctx.config, name), { etag: true });
  });

  router.use(() => {
    throw new NotFoundError();
  });

  return router;
}
