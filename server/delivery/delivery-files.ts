import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from "node:http";
import fs from "node:fs/promises";
import { create as contentDisposition } from "content-disposition";
import type { AppContext } from "../context";
import { HttpError, NotFoundError } from "../http/errors";
import { sendEntity, type Body, type Entity, type ProxyBody } from "../http/entity-response";
import { answerError } from "../http/plain-answers";
import { answerFor } from "../http/error-middleware";
import { sendfileTarget } from "../http/sendfile-header";
import { GALLERY_THUMBNAIL, responseObserver } from "../ops/request-observer";
import { attachmentDisposition, webSizeNameOf } from "../publish/download-name";
import { KEY_FIELDS, renditionKeyOf } from "../attachments/renditions.service";
import { jpegNameOf } from "../attachments/file-names";
import { renditionSpec, type Rendition, type RenditionSpec } from "../storage/image-files";
import { PUBLISHED_ZIP_NAME } from "../storage/paths";
import { publishedZipKey, webSizeZipKey } from "../storage/published-zips";
import { readAll, type ObjectStat, type ObjectStore } from "../storage/object-store";
import { storesOf } from "../storage/stores";
import { objectBody, redirectToStorage } from "../http/stored-object";
import {
  mayOpen,
  openLink,
  photoAt,
  PHOTO_NOT_FOUND,
  requirePasscodeCookie,
  zipStatOf,
  type DeliveryLink,
  type DeliveryPhoto,
} from "./delivery.service";
import { ThumbnailCache } from "./thumbnail-cache";
import { readyThumbnails } from "./ready-thumbnails";
import { deliveryCache } from "./delivery-cache";
import { countZipDownload, countZipHandOver } from "./zip-downloads";
import { notePhotoDownload } from "../activity/delivery-hooks";
import { mayDownload, requireDownload, webSizeZipStatOf } from "./download-choices";
import { answerZipErrorPage, isZipPageRequest } from "./zip-error-page";
import { LANGUAGE_VARY, pageTranslator } from "./message-page";

type PhotoRoute = { kind: "photo" | "download" | "webDownload" | Rendition; token: string; n: string };
type FileRoute = PhotoRoute | { kind: "zip" | "webZip" | "published"; token: string };

const DELIVERY_FILE = /^\/d\/([^/]+)\/(?:([ptv])\/([^/]+)(\/download)?|(all\.zip|web\.zip))\/?$/i;
/** The letter of each rendition's route: `t/<n>` the thumbnail, `v/<n>` the preview (what the viewer shows). */
const RENDITION_OF: Record<string, Rendition> = { t: "thumbnail", v: "preview" };
const PUBLISHED_FILE = /^\/published\/([^/]+)\/?$/i;
// The link can end at any moment (expiry, regenerate, unpublish), so caches must ask each time.
const REVALIDATE = "private, no-cache";

const pathOf = (url: string) => {
  const query = url.indexOf("?");
  return query < 0 ? url : url.slice(0, query);
};

/** The route template (for the log and metrics) of a delivery file URL; undefined for any other URL. */
function templateOf(url: string): string | undefined {
  const path = pathOf(url);
  if (PUBLISHED_FILE.test(path)) return "/published/:name";
  const m = DELIVERY_FILE.exec(path);
  if (!m) return undefined;
  if (m[5]) return `/d/:token/${m[5].toLowerCase()}`;
  const letter = m[2].toLowerCase();
  if (m[4]) return letter === "t" ? undefined : `/d/:token/${letter}/:n/download`;
  return `/d/:token/${letter}/:n`;
}

/** Percent-decoded as Express decodes a route's parameters; a malformed one is a 400, as there. */
function decode(segment: string): string {
  if (!segment.includes("%")) return segment;
  try {
    return decodeURIComponent(segment);
  } catch {
    throw new HttpError(400, "Malformed URL");
  }
}

/** Which file a URL `templateOf` recognised names. */
function fileRouteOf(url: string): FileRoute {
  const path = pathOf(url);
  const published = PUBLISHED_FILE.exec(path);
  if (published) {
    const name = decode(published[1]);
    return { kind: "published", token: PUBLISHED_ZIP_NAME.test(name) ? name.slice(0, -".zip".length) : "" };
  }
  const m = DELIVERY_FILE.exec(path)!;
  const token = decode(m[1]);
  if (m[5]) return { kind: m[5].toLowerCase() === "web.zip" ? "webZip" : "zip", token };
  const n = decode(m[3]);
  // `v/<n>/download`: the preview as a download, the web size.
  if (m[4] && m[2].toLowerCase() === "v") return { kind: "webDownload", token, n };
  const rendition = RENDITION_OF[m[2].toLowerCase()];
  if (rendition) return { kind: rendition, token, n };
  return { kind: m[4] ? "download" : "photo", token, n };
}

type Disposition = "inline" | "attachment" | "preview" | "webSize";
const dispositions = new WeakMap<DeliveryPhoto, Record<Disposition, string>>();
/** Content-Disposition naming the photo (its preview, a JPEG, by a `.jpg` name), made once per photo the cache holds. */
function dispositionOf(photo: DeliveryPhoto, type: Disposition): string {
  let all = dispositions.get(photo);
  if (!all) {
    all = {
      inline: contentDisposition(photo.originalName, { type: "inline" }),
      attachment: contentDisposition(photo.originalName, { type: "attachment" }),
      preview: contentDisposition(jpegNameOf(photo.originalName), { type: "inline" }),
      webSize: contentDisposition(webSizeNameOf(photo.originalName), { type: "attachment" }),
    };
    dispositions.set(photo, all);
  }
  return all[type];
}

/** How a photo route names its file: a download is an attachment, the web size by a `.jpg` name. */
function dispositionFor(kind: PhotoRoute["kind"], tag: string | undefined): Disposition {
  if (kind === "download") return "attachment";
  if (kind === "webDownload") return tag === "preview" ? "webSize" : "attachment";
  return tag === "preview" ? "preview" : "inline";
}

/** What a photo route answers with: the photo itself, or the rendition `spec` describes. */
function photoEntity(photo: DeliveryPhoto, kind: PhotoRoute["kind"], spec: RenditionSpec | undefined): Entity {
  return {
    headers: {
      "Content-Type": spec?.mimeType ?? photo.mimeType,
      "Content-Disposition": dispositionOf(photo, dispositionFor(kind, spec?.tag)),
      "X-Content-Type-Options": "nosniff",
      "Cache-Control": REVALIDATE,
    },
    validators: { etag: `"${photo.checksum}${spec ? `-${spec.tag}` : ""}"` },
    notFound: PHOTO_NOT_FOUND,
  };
}

export interface DeliveryFilesOptions {
  /** Headers every answer carries (the security headers, which depend on how the request arrived). */
  baseHeaders: (req: IncomingMessage) => Readonly<OutgoingHttpHeaders>;
  /** The client's address as TRUST_PROXY says to read it. */
  clientAddress: (req: IncomingMessage) => string;
}

/**
 * GET and HEAD of a delivery's photos, thumbnails, previews and ZIP (`/d/<token>/p|t|v/<n>`, `/all.zip`,
 * `/published/<token>.zip`), answered before Express: Express's own routing and response helpers
 * cost more than a thumbnail from memory. Every answer follows the same rules as the page (404,
 * 410 past the expiry, 401 without the passcode's cookie); the link and its photos come from the
 * delivery cache, thumbnails from a bounded memory cache, other files from disk in 512 KiB reads or,
 * with SENDFILE_HEADER, from the proxy in front, or streamed from object storage. Each method
 * answers false for any other request.
 */
export function deliveryFiles(ctx: AppContext, options: DeliveryFilesOptions) {
  const observer = responseObserver(ctx);
  const { uploads, published } = storesOf(ctx.config);
  // By key, so an answer from memory needs no file name; a file on disk is read in one go.
  const thumbnails = new ThumbnailCache(ctx.config.deliveryThumbnailCacheBytes, async (key) => {
    const file = uploads.localFile(key);
    return file ? fs.readFile(file) : readAll(await uploads.get(key));
  });
  const handOver = uploads.kind === "disk" ? sendfileTarget(ctx.config) : undefined;
  const thumbnailSpec = renditionSpec(ctx.config, "thumbnail");
  // With SENDFILE_HEADER, the thumbnails the proxy was handed (their files are there) by photo.
  const handedOver = new WeakMap<DeliveryPhoto, ProxyBody>();
  const readyThumbnail = readyThumbnails({
    cache: deliveryCache(ctx),
    bodyOf: (photo) =>
      handOver ? handedOver.get(photo) : photo.thumbnailKey ? thumbnails.peek(photo.thumbnailKey) : undefined,
    baseHeaders: options.baseHeaders,
    entityOf: (photo) => photoEntity(photo, "thumbnail", thumbnailSpec),
  });

  /** A stored file, read here or sent by the proxy, or an object streamed from object storage. */
  const storedBody = async (store: ObjectStore, key: string, notFound?: string, known?: ObjectStat): Promise<Body> => {
    const body = await objectBody(store, key, notFound, known);
    return handOver && body.kind === "file" ? { kind: "proxy", ...handOver(body.path) } : body;
  };
  const photoBody = (key: string) => storedBody(uploads, key, PHOTO_NOT_FOUND);

  async function sendPhoto(req: IncomingMessage, res: ServerResponse, link: DeliveryLink, route: PhotoRoute) {
    if (route.kind === "photo" || route.kind === "download") requireDownload(link, "original");
    if (route.kind === "webDownload") requireDownload(link, "webSize");
    const photo = await photoAt(ctx, link, route.n);
    if (route.kind === "download") notePhotoDownload(ctx, req, link, photo.originalName, "original");
    if (route.kind === "webDownload") notePhotoDownload(ctx, req, link, webSizeNameOf(photo.originalName), "web");
    const rendition = route.kind === "thumbnail" || route.kind === "preview" ? route.kind : undefined;
    const renditionOrWebSize = route.kind === "webDownload" ? "preview" : rendition;
    // A photo whose rendition cannot be rendered (damaged, or no room on the disk) is shown itself,
    // where the link lets its originals out at all.
    const key = renditionOrWebSize
      ? (photo[KEY_FIELDS[renditionOrWebSize]] ??= await renditionKeyOf(ctx, renditionOrWebSize, photo).catch(
          () => null,
        ))
      : null;
    if (renditionOrWebSize && !key && !mayDownload(link, "original")) throw new NotFoundError(PHOTO_NOT_FOUND);
    const spec = renditionOrWebSize && key ? renditionSpec(ctx.config, renditionOrWebSize) : undefined;
    const entity = photoEntity(photo, route.kind, spec);
    if (route.kind === "download" || route.kind === "webDownload") {
      const answer = {
        contentType: String(entity.headers["Content-Type"]),
        contentDisposition: String(entity.headers["Content-Disposition"]),
      };
      const redirect = { notFound: PHOTO_NOT_FOUND, headers: options.baseHeaders(req) };
      if (await redirectToStorage(res, uploads, key ?? photo.storageKey, answer, redirect)) return;
    }
    if (!key) return sendEntity(req, res, options.baseHeaders(req), entity, await photoBody(photo.storageKey));
    let data: Buffer | undefined;
    // Previews (hundreds of kB each) are read from storage; thumbnails from memory. Unreadable here:
    // the answer from storage says why (404 when it is gone).
    if (!handOver && rendition === "thumbnail")
      data = await Promise.resolve(thumbnails.read(key)).catch(() => undefined);
    const body: Body = data ? { kind: "buffer", data } : await photoBody(key);
    if (rendition === "thumbnail" && body.kind === "proxy") handedOver.set(photo, body);
    return sendEntity(req, res, options.baseHeaders(req), entity, body);
  }

  /**
   * A ZIP (the originals', or the previews' as `web.zip`), whose downloads count by the bytes
   * this process hands out, or, with SENDFILE_HEADER, hands to the proxy to send. In object
   * storage it is streamed from there, even with S3_PRESIGNED_DOWNLOADS: counting needs the bytes.
   */
  async function sendZip(req: IncomingMessage, res: ServerResponse, link: DeliveryLink, webSize: boolean) {
    requireDownload(link, webSize ? "webSize" : "original");
    const zip = webSize ? await webSizeZipStatOf(ctx, link) : await zipStatOf(ctx, link);
    if (!zip) throw new NotFoundError();
    // The web size's file is named in the page's language: "Anna & Tom (Webgröße).zip"; the
    // originals' by the project's name alone, the same in every language.
    const name = webSize ? await webSizeZipName(req, link) : { text: link.projectName, tr: undefined };
    const version = `${zip.size.toString(16)}-${zip.mtime.getTime().toString(16)}`;
    const entity: Entity = {
      headers: {
        "Content-Type": "application/zip",
        "Content-Disposition": attachmentDisposition(name.text),
        "Cache-Control": REVALIDATE,
        "X-Robots-Tag": "noindex",
        ...(name.tr && { Vary: LANGUAGE_VARY }),
      },
      validators: {
        // The same bytes under another language's name are another answer: a cache, or a download
        // resumed with If-Range, must not keep one language's name for another's.
        etag: `W/"${version}${name.tr ? `-${name.tr.lang}` : ""}"`,
        lastModified: zip.mtime.toUTCString(),
      },
    };
    const body = await storedBody(published, (webSize ? webSizeZipKey : publishedZipKey)(link.zipPath), undefined, zip);
    const kind = webSize ? "webSize" : "originals";
    const clientAddress = options.clientAddress(req);
    if (body.kind !== "proxy") countZipDownload(ctx, req, res, link, clientAddress, kind);
    await sendEntity(req, res, options.baseHeaders(req), entity, body);
    // What the proxy sends is only known once Photodrop has not answered 304 or 412 itself.
    if (body.kind === "proxy" && res.statusCode === 200)
      countZipHandOver(ctx, req, link, clientAddress, zip.size, kind);
  }

  async function webSizeZipName(req: IncomingMessage, link: DeliveryLink) {
    const tr = await pageTranslator(ctx, req, link.language);
    return { text: tr.t("gallery.webSizeZipName", { project: link.projectName }), tr };
  }

  // The language of each request's link once it is found, for its error page to speak as its gallery does.
  const linkLanguages = new WeakMap<IncomingMessage, string | null>();

  async function serveFile(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const route = fileRouteOf(req.url ?? "/");
    const link = await openLink(ctx, route.token);
    linkLanguages.set(req, link.language);
    // A person who opened the ZIP link itself is sent to the passcode form, whose cookie covers this path too.
    if (
      route.kind === "published" &&
      (req.headers.accept ?? "").includes("text/html") &&
      !(await mayOpen(ctx, req, link))
    ) {
      res.writeHead(303, {
        ...options.baseHeaders(req),
        Location: `/d/${link.token}`,
        "Content-Type": "text/plain; charset=utf-8",
      });
      res.end(req.method === "HEAD" ? undefined : `See Other. Redirecting to /d/${link.token}`);
      return;
    }
    await requirePasscodeCookie(ctx, req, link);
    return "n" in route ? sendPhoto(req, res, link, route) : sendZip(req, res, link, route.kind === "webZip");
  }

  function fail(req: IncomingMessage, res: ServerResponse, err: unknown) {
    if (res.headersSent) {
      res.destroy();
      return;
    }
    const answer = answerFor(err, ctx.logger, { method: req.method, path: pathOf(req.url ?? "/") });
    if (isZipPageRequest(req))
      void answerZipErrorPage(ctx, req, res, err, answer, options.baseHeaders(req), linkLanguages.get(req));
    else answerError(req, res, answer, options.baseHeaders(req));
  }

  return {
    /**
     * A thumbnail answered at once (see `readyThumbnails`): true if it was. It knows its own route,
     * so it needs none of the reading `serve` does.
     */
    answerReady(req: IncomingMessage, res: ServerResponse): boolean {
      const started = performance.now();
      if (!readyThumbnail(req, res)) return false;
      observer.answered(req, res, GALLERY_THUMBNAIL, started);
      return true;
    },
    /** True if the request is for a delivery file, which is then being answered. */
    serve(req: IncomingMessage, res: ServerResponse): boolean {
      if (req.method !== "GET" && req.method !== "HEAD") return false;
      const template = templateOf(req.url ?? "/");
      if (!template) return false;
      observer.observe(req, res, () => template);
      serveFile(req, res).catch((err: unknown) => fail(req, res, err));
      return true;
    },
  };
}
