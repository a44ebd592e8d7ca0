import express, { Router, type Response } from "express";
import type { AppContext } from "../context";
import { HttpError } from "../http/errors";
import { sendHtml } from "../delivery/delivery.router";
import { addressOfToken, unsubscribe } from "./unsubscribe.service";
import { rememberLanguage } from "../i18n/choose-language";
import { clientPage } from "../delivery/message-page";
import { renderInvalidLink, renderUnsubscribeForm, renderUnsubscribed } from "./unsubscribe-page";

/**
 * /unsubscribe/<token>: GET shows a button (or, to an address already out, says so); POST
 * unsubscribes. The POST is also RFC 8058's one-click (`List-Unsubscribe=One-Click` in a form
 * body, no cookie, no sign-in). Every page carries the studio's logo, accent and contact line.
 */
export function unsubscribeRouter(ctx: AppContext): Router {
  const router = Router();
  const answer = (action: typeof addressOfToken) => async (req: express.Request, res: Response) => {
    rememberLanguage(req, res);
    const token = String(req.params.token);
    // The mail's language comes with its link (`?lang=`); else the visitor's, the browser's (if followed), the studio's.
    const studio = await clientPage(ctx, req, null, `/unsubscribe/${encodeURIComponent(token)}`);
    try {
      const address = await action(ctx, token);
      const page = address.unsubscribed ? renderUnsubscribed : renderUnsubscribeForm;
      sendHtml(res, 200, page({ ...studio, email: address.email }), studio.tr);
    } catch (err) {
      if (!(err instanceof HttpError) || err.statusCode !== 404) throw err;
      sendHtml(res, 404, renderInvalidLink(studio), studio.tr);
    }
  };

  router.get("/:token", answer(addressOfToken));
  router.post("/:token", express.urlencoded({ extended: false, limit: "1kb", parameterLimit: 5 }), answer(unsubscribe));
  return router;
}
