import path from "node:path";
import { fileURLToPath } from "node:url";
import express, { Router, type Request, type Response } from "express";
import type { AppContext } from "../context";
import { HttpError, NotFoundError } from "../http/errors";
import { sendStoredFile } from "../http/send-file";
import { uploadPath } from "../storage/paths";
import { thumbnailKeyOf } from "../attachments/thumbnails.service";
import { renderGallery, renderMessage, renderPasscodeForm } from "./delivery-page";
import { createPasscodeAttempts } from "./passcode-attempts";
import { setPasscodeCookie } from "./passcode-cookie";
import { notePasscodeFailure, notePhotoDownload } from "../activity/delivery-hooks";
import {
  checkPasscode,
  EXPIRED_MESSAGE,
  galleryOf,
  mayOpen,
  openLink,
  photoAt,
  recordView,
  requirePasscodeCookie,
  sendZip,
  type DeliveryLink,
} from "./delivery.service";

const assetsDir = path.join(path.dirname(fileURLToPath(import.meta.url)), "assets");

export function sendHtml(res: Response, status: number, html: string) {
  res
    .status(status)
    .set({ "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store", "X-Robots-Tag": "noindex" })
    .send(html);
}

/** /d/...: the client's delivery page, its photos, thumbnails and ZIP, and the passcode form. */
export function deliveryRouter(ctx: AppContext): Router {
  const router = Router();
  const studio = ctx.config.studioName;
  const attempts = createPasscodeAttempts(ctx.db);

  /** The page's own answers are pages too: a 404 or 410 a person can read. */
  async function pageFor(res: Response, token: string): Promise<DeliveryLink | undefined> {
    try {
      return await openLink(ctx, token);
    } catch (err) {
      if (!(err instanceof HttpError) || (err.statusCode !== 404 && err.statusCode !== 410)) throw err;
      const gone = err.statusCode === 410;
      const title = gone ? EXPIRED_MESSAGE : "This delivery link does not exist";
      const text = gone ? "Ask the studio for a new link." : "Check the address, or ask the studio for a new link.";
      sendHtml(res, err.statusCode, renderMessage({ studio, title, text }));
      return undefined;
    }
  }

  /** A link whose files the request may have: open, not expired, and unlocked when it has a passcode. */
  async function unlockedLink(req: Request): Promise<DeliveryLink> {
    const link = await openLink(ctx, String(req.params.token));
    await requirePasscodeCookie(ctx, req, link);
    return link;
  }

  router.use("/assets", express.static(assetsDir, { index: false, maxAge: "1h", fallthrough: true }));

  router.get("/:token", async (req, res) => {
    const link = await pageFor(res, req.params.token);
    if (!link) return;
    if (!(await mayOpen(ctx, req, link))) return sendHtml(res, 200, renderPasscodeForm({ studio, token: link.token }));
    const { photos, zipSize } = await galleryOf(ctx, link);
    if (req.method === "GET") await recordView(ctx, link);
    sendHtml(res, 200, renderGallery({ studio, token: link.token, projectName: link.projectName, photos, zipSize }));
  });

  router.post(
    "/:token/unlock",
    express.urlencoded({ extended: false, limit: "4kb", parameterLimit: 5 }),
    async (req, res) => {
      const link = await pageFor(res, req.params.token);
      if (!link) return;
      try {
        await checkPasscode(link, (req.body as Record<string, unknown> | undefined)?.passcode, attempts);
      } catch (err) {
        if (!(err instanceof HttpError) || (err.statusCode !== 401 && err.statusCode !== 429)) throw err;
        if (err.statusCode === 401) notePasscodeFailure(ctx, link.projectId);
        if (err.headers) res.set(err.headers);
        return sendHtml(res, err.statusCode, renderPasscodeForm({ studio, token: link.token, error: err.message }));
      }
      if (link.passcodeHash) await setPasscodeCookie(ctx.db, req, res, link);
      res.redirect(303, `/d/${link.token}`);
    },
  );

  router.get("/:token/all.zip", async (req, res) => {
    await sendZip(ctx, req, res, await unlockedLink(req));
  });

  for (const kind of ["p", "p-download", "t"] as const) {
    const route = kind === "p-download" ? "/:token/p/:n/download" : `/:token/${kind}/:n`;
    router.get(route, async (req, res) => {
      const link = await unlockedLink(req);
      const photo = await photoAt(ctx, link, String(req.params.n));
      if (kind === "p-download") notePhotoDownload(ctx, req, link, photo.originalName);
      // A photo whose thumbnail cannot be rendered (damaged, or no room on the disk) is shown itself.
      const thumbnail = kind === "t" && (await thumbnailKeyOf(ctx, photo).catch(() => null));
      res.attachment(photo.originalName);
      if (kind !== "p-download")
        res.set("Content-Disposition", res.get("Content-Disposition")!.replace(/^attachment/, "inline"));
      res.set({
        "Content-Type": thumbnail ? "image/webp" : photo.mimeType,
        "X-Content-Type-Options": "nosniff",
        ETag: `"${photo.checksum}${thumbnail ? "-thumb" : ""}"`,
        // Revalidated on every use: the link can end at any moment.
        "Cache-Control": "private, no-cache",
      });
      await sendStoredFile(res, uploadPath(ctx.config, thumbnail || photo.storageKey), { notFound: "Photo not found" });
    });
  }

  router.use(() => {
    throw new NotFoundError();
  });
  return router;
}
