import express, { Router, type Response } from "express";
import { studioName } from "../studio/studio.service";
import type { AppContext } from "../context";
import { HttpError } from "../http/errors";
import { sendHtml } from "../delivery/delivery.router";
import { addressOfToken, unsubscribe } from "./unsubscribe.service";
import { renderInvalidLink, renderUnsubscribeForm, renderUnsubscribed } from "./unsubscribe-page";

/**
 * /unsubscribe/<token>: GET shows a button; POST unsubscribes. The POST is also RFC 8058's
 * one-click (`List-Unsubscribe=One-Click` in a form body, no cookie, no sign-in).
 */
export function unsubscribeRouter(ctx: AppContext): Router {
  const router = Router();
  const answer =
    (action: typeof addressOfToken, page: typeof renderUnsubscribeForm) =>
    async (req: express.Request, res: Response) => {
      try {
        const address = await action(ctx, String(req.params.token));
        sendHtml(res, 200, page({ studio: await studioName(ctx), email: address.email }));
      } catch (err) {
        if (!(err instanceof HttpError) || err.statusCode !== 404) throw err;
        sendHtml(res, 404, renderInvalidLink(await studioName(ctx)));
      }
    };

  router.get("/:token", answer(addressOfToken, renderUnsubscribeForm));
  router.post(
    "/:token",
    express.urlencoded({ extended: false, limit: "1kb", parameterLimit: 5 }),
    answer(unsubscribe, renderUnsubscribed),
  );
  return router;
}
