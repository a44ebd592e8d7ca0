import { Router, type Request, type Response } from "express";
import type { AppContext } from "../context";
import { bearerToken, credentialsFor } from "../http/authenticate";
import { enrolFirst, mustEnrolFirst } from "../two-factor/require-two-factor";
import { ForbiddenError, NotFoundError, UnauthorizedError } from "../http/errors";
import { redirectToStorage, sendStoredObject } from "../http/stored-object";
import { parseId } from "../http/validate";
import { storesOf } from "../storage/stores";
import { getAttachmentRecord, type AttachmentRecord } from "./attachments.service";
import { LINK_KINDS, linkSigner, type LinkKind } from "./signed-links";
import { renditionKeyOf } from "./renditions.service";
import { renditionSpec } from "../storage/image-files";
import { jpegNameOf } from "./file-names";

/**
 * A signed link (`?exp=…&sig=…`) or a bearer token of an approved user; nothing else serves an
 * attachment. Signed answers may be cached privately until the link expires.
 */
async function authorize(ctx: AppContext, req: Request, kind: LinkKind): Promise<{ cacheSeconds: number }> {
  const token = bearerToken(req);
  if (token) {
    const credentials = await credentialsFor(ctx, token);
    if (!credentials.user.hasAccess) throw new ForbiddenError("Access not approved");
    if (await mustEnrolFirst(ctx, credentials)) throw enrolFirst();
    return { cacheSeconds: 0 };
  }
  const { exp, sig } = req.query;
  if (exp === undefined && sig === undefined) throw new UnauthorizedError();
  const verdict = (await linkSigner(ctx.db)).check(String(req.params.id), kind, exp, sig);
  if (verdict === "expired") throw new ForbiddenError("Link has expired");
  if (verdict === "invalid") throw new ForbiddenError("Invalid link signature");
  return { cacheSeconds: Math.max(0, Number(exp) - Math.floor(Date.now() / 1000)) };
}

const NOT_FOUND = { thumbnail: "Thumbnail not found", preview: "Preview not found" };
const FILE_NOT_FOUND = "Attachment file not found";

async function fileOf(ctx: AppContext, record: AttachmentRecord, kind: LinkKind) {
  if (kind === "thumbnail" || kind === "preview") {
    const key = await renditionKeyOf(ctx, kind, record);
    if (!key) throw new NotFoundError(NOT_FOUND[kind]);
    const { mimeType, tag } = renditionSpec(ctx.config, kind);
    return { key, type: mimeType, etag: `"${record.checksum}-${tag}"` };
  }
  return { key: record.storageKey, type: record.mimeType, etag: `"${record.checksum}"` };
}

/** `res.attachment` builds the RFC 6266 header (ASCII fallback and RFC 5987 `filename*`); inline only swaps the type. */
function setDisposition(res: Response, kind: LinkKind, originalName: string) {
  res.attachment(kind === "preview" ? jpegNameOf(originalName) : originalName);
  if (kind !== "download")
    res.set("Content-Disposition", res.get("Content-Disposition")!.replace(/^attachment/, "inline"));
}

/** /api/attachments/:id/view|download|thumbnail|preview: a signed link or a bearer token (mounted before authenticate). */
export function attachmentFilesRouter(ctx: AppContext): Router {
  const router = Router();
  const uploads = storesOf(ctx.config).uploads;
  for (const kind of LINK_KINDS) {
    router.get(`/:id/${kind}`, async (req, res) => {
      const { cacheSeconds } = await authorize(ctx, req, kind);
      const record = await getAttachmentRecord(ctx, parseId(req.params.id));
      const file = await fileOf(ctx, record, kind);
      setDisposition(res, kind, record.originalName);
      const answer = { contentType: file.type, contentDisposition: res.get("Content-Disposition")! };
      if (
        kind === "download" &&
        (await redirectToStorage(res, uploads, file.key, answer, { notFound: FILE_NOT_FOUND }))
      )
        return;
      res.set({
        "Content-Type": file.type,
        "X-Content-Type-Options": "nosniff",
        ETag: file.etag,
        "Cache-Control": cacheSeconds > 0 ? `private, max-age=${cacheSeconds}` : "private, no-cache",
      });
      await sendStoredObject(req, res, uploads, file.key, { notFound: FILE_NOT_FOUND });
    });
  }
  return router;
}
