import { Router } from "express";
import type { AppContext } from "../context";
import { NotFoundError } from "../http/errors";
import { PUBLISHED_ZIP_NAME } from "../storage/paths";
import { mayOpen, openLink, requirePasscodeCookie, sendZip } from "../delivery/delivery.service";

/**
 * /published/<name>.zip: public delivery of published ZIPs. A name is served only while a
 * published project records it, so unknown, unpublished and crafted names all look the same.
 * It is the same ZIP as its delivery page's `all.zip`, under the same rules: 410 past the link's
 * expiry, 401 without the passcode's cookie (a browser's page navigation is sent to the passcode
 * form instead), and a full transfer counts as a download.
 */
export function publishedRouter(ctx: AppContext): Router {
  const router = Router();

  router.get("/:name", async (req, res) => {
    const name = req.params.name;
    if (!PUBLISHED_ZIP_NAME.test(name)) throw new NotFoundError();
    const link = await openLink(ctx, name.slice(0, -".zip".length));
    // A person who opened the ZIP link itself is sent to the passcode form, whose cookie covers this path too.
    if (!(await mayOpen(ctx, req, link)) && (req.get("accept") ?? "").includes("text/html")) {
      return res.redirect(303, `/d/${link.token}`);
    }
    await requirePasscodeCookie(ctx, req, link);
    await sendZip(ctx, req, res, link);
  });

  router.use(() => {
    throw new NotFoundError();
  });

  return router;
}
