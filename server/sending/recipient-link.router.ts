import { Router } from "express";
import type { AppContext } from "../context";
import { DELIVERY_TOKEN } from "../delivery/delivery.service";
import { deliveryCache } from "../delivery/delivery-cache";
import { LINK_KEY, setRecipientCookie } from "./recipient-cookie";
import { recipientOfKey } from "./recipient-links.service";
import { rememberLanguage } from "../i18n/choose-language";

/**
 * `/d/<token>?r=<key>`, the link in a client's mail: remembers whose mail it was (a cookie for
 * that page) and sends the browser on to the page itself, so the key stays out of its history
 * and of anything the page links to. Mounted at /d before the delivery router, which serves the
 * page; a link without `r` goes straight there.
 */
export function recipientLinkRouter(ctx: AppContext): Router {
  const router = Router();
  router.get("/:token", async (req, res, next) => {
    const { token } = req.params;
    const key = req.query.r;
    if (key === undefined || !DELIVERY_TOKEN.test(token)) return next();
    if (typeof key === "string" && LINK_KEY.test(key) && (await recipientOfKey(ctx, key, token))) {
      const link = await deliveryCache(ctx).link(token);
      if (link) setRecipientCookie(req, res, link, key);
    }
    // A `?lang=` beside the key is the visitor's choice too: remembered before the page drops it.
    rememberLanguage(req, res);
    res.redirect(302, `/d/${token}`);
  });
  return router;
}
