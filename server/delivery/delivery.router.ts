import path from "node:path";
import { fileURLToPath } from "node:url";
import express, { Router, type Request, type Response } from "express";
import type { AppContext } from "../context";
import { HttpError, NotFoundError } from "../http/errors";
import { galleryPart, renderGallery, renderPasscodeForm } from "./delivery-page";
import { clientPage, languageHeaders, messagePage } from "./message-page";
import { galleryPartSchema } from "./delivery.schema";
import { parse } from "../http/validate";
import { createPasscodeAttempts } from "./passcode-attempts";
import { setPasscodeCookie } from "./passcode-cookie";
import { notePasscodeFailure } from "../activity/delivery-hooks";
import { galleryDownloads } from "./download-choices";
import { BeingUpdatedError } from "./being-updated.service";
import { rememberLanguage } from "../i18n/choose-language";
import type { Translator } from "../i18n/i18n";
import {
  checkPasscode,
  DELIVERY_TOKEN,
  galleryOf,
  GoneError,
  mayOpen,
  openLink,
  recordView,
  requirePasscodeCookie,
  type DeliveryLink,
} from "./delivery.service";
import { noteDeliveryViewed } from "../webhooks/delivery-events";

const assetsDir = path.join(path.dirname(fileURLToPath(import.meta.url)), "assets");

/** A client's page: never kept by anyone (its language, passcode and photos are this visitor's). */
export function sendHtml(res: Response, status: number, html: string, tr?: Translator) {
  res
    .status(status)
    .set({ "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store", "X-Robots-Tag": "noindex" })
    .set(tr ? languageHeaders(tr) : {})
    .send(html);
}

/**
 * /d/...: the client's delivery page, its assets and the passcode form. Its photos, thumbnails and
 * ZIP are answered before Express (`delivery-files.ts`).
 */
export function deliveryRouter(ctx: AppContext): Router {
  const router = Router();
  const attempts = createPasscodeAttempts(ctx.db);

  /**
   * The page's own answers are pages too: a 404, 410 or 503 (being updated) a person can read, in
   * the visitor's language (a `?lang=` remembered), else the project's (while it has one), else the studio's.
   */
  async function pageFor(req: Request, res: Response, token: string): Promise<DeliveryLink | undefined> {
    rememberLanguage(req, res);
    const here = `/d/${token}`;
    try {
      return await openLink(ctx, token);
    } catch (err) {
      if (err instanceof BeingUpdatedError) {
        if (err.headers) res.set(err.headers);
        const page = await clientPage(ctx, req, err.language, here);
        sendHtml(res, 503, messagePage(page, "message.updatingTitle", "message.updatingText"), page.tr);
        return undefined;
      }
      if (!(err instanceof HttpError) || (err.statusCode !== 404 && err.statusCode !== 410)) throw err;
      const gone = err.statusCode === 410;
      // An unknown token's menu would link to nowhere useful, but still lets the visitor read this page.
      const project = err instanceof GoneError ? err.language : null;
      const page = await clientPage(ctx, req, project, DELIVERY_TOKEN.test(token) ? here : undefined);
      const [title, text] = gone
        ? ["message.expiredTitle", "message.expiredText"]
        : ["message.unknownTitle", "message.unknownText"];
      sendHtml(res, err.statusCode, messagePage(page, title, text), page.tr);
      return undefined;
    }
  }

  router.use("/assets", express.static(assetsDir, { index: false, maxAge: "1h", fallthrough: true }));

  router.get("/:token", async (req, res) => {
    const link = await pageFor(req, res, req.params.token);
    if (!link) return;
    const page = await clientPage(ctx, req, link.language, `/d/${link.token}`);
    if (!(await mayOpen(ctx, req, link)))
      return sendHtml(res, 200, renderPasscodeForm({ ...page, token: link.token }), page.tr);
    const { photos, zipSize } = await galleryOf(ctx, link);
    // A later part, where a browser without the script moves on: not another view of the page.
    const from = galleryPartSchema.safeParse(req.query);
    const part = from.success ? from.data.from : 1;
    if (req.method === "GET" && req.query.from === undefined) {
      // The webhook event is written beside the page (inBackground), never before it.
      noteDeliveryViewed(ctx, req, link.projectId);
      await recordView(ctx, link);
    }
    sendHtml(
      res,
      200,
      renderGallery({
        ...page,
        token: link.token,
        projectName: link.projectName,
        coverId: link.coverAttachmentId,
        photos,
        from: part,
        zipSize,
        downloads: await galleryDownloads(ctx, link),
      }),
      page.tr,
    );
  });

  /** A part of the grid for the script, under the same rules as the photos: 404, 410, 401 without the passcode's cookie. */
  router.get("/:token/photos", async (req, res) => {
    const { from } = parse(galleryPartSchema, req.query);
    const link = await openLink(ctx, req.params.token);
    await requirePasscodeCookie(ctx, req, link);
    const { photos } = await galleryOf(ctx, link);
    res.set({ "Cache-Control": "no-store", "X-Robots-Tag": "noindex" }).json(galleryPart(photos, from));
  });

  router.post(
    "/:token/unlock",
    express.urlencoded({ extended: false, limit: "4kb", parameterLimit: 5 }),
    async (req, res) => {
      const link = await pageFor(req, res, req.params.token);
      if (!link) return;
      try {
        await checkPasscode(link, (req.body as Record<string, unknown> | undefined)?.passcode, attempts);
      } catch (err) {
        if (!(err instanceof HttpError) || (err.statusCode !== 401 && err.statusCode !== 429)) throw err;
        if (err.statusCode === 401) notePasscodeFailure(ctx, link.projectId);
        if (err.headers) res.set(err.headers);
        const page = await clientPage(ctx, req, link.language, `/d/${link.token}`);
        const error = page.tr.t(err.statusCode === 401 ? "passcode.wrong" : "passcode.tooMany");
        return sendHtml(res, err.statusCode, renderPasscodeForm({ ...page, token: link.token, error }), page.tr);
      }
      if (link.passcodeHash) await setPasscodeCookie(ctx.db, req, res, link);
      res.redirect(303, `/d/${link.token}`);
    },
  );

  router.use(() => {
    throw new NotFoundError();
  });
  return router;
}
