import express, { Router, type Response } from "express";
import { branding } from "../studio/studio.service";
import type { AppContext } from "../context";
import { HttpError } from "../http/errors";
import { sendHtml } from "../delivery/delivery.router";
import { addressOfToken, unsubscribe } from "./unsubscribe.service";
import { renderInvalidLink, renderUnsubscribeForm, renderUnsubscribed } from "./unsubscribe-page";

/**
 * /unsubscribe/<token>: GET shows a button (or, to an address already out, says so); POST
 * unsubscribes. The POST is also RFC 8058's one-click (`List-Unsubscribe=One-Click` in a form
 * body, no cookie, no sign-in). Every page carries the studio's logo, accent and contact line.
 */
export function unsubscribeRouter(ctx: AppContext): Router {
  const router = Router();
  const answer = (action: typeof addressOfToken) => async (req: express.Request, res: Response) => {
    const brand = await branding(ctx);
    const studio = { studio: brand.name, brand };
    try {
      const address = await action(ctx, String(req.params.token));
      const page = address.unsubscribed ? renderUnsubscribed : renderUnsubscribeForm;
      sendHtml(res, 200, page({ ...studio, email: address.email }));
    } catch (err) {
      if (!(err instanceof HttpError) || err.statusCode !== 404) throw err;
      sendHtml(res, 404, renderInvalidLink(studio));
    }
  };

  router.get("/:token", answer(addressOfToken));
  router.post("/:token", express.urlencoded({ extended: false, limit: "1kb", parameterLimit: 5 }), answer(unsubscribe));
  return router;
}
