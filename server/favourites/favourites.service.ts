import type { Request } from "express";
import type { AppContext } from "../context";
import { nowIso } from "../db/database";
import { ConflictError, ForbiddenError, NotFoundError } from "../http/errors";
import {
  openLink,
  photoAt,
  PHOTO_NOT_FOUND,
  requirePasscodeCookie,
  type DeliveryLink,
} from "../delivery/delivery.service";
import { deliveryCache } from "../delivery/delivery-cache";
import { aspectRatio } from "../delivery/delivery-page";
import { inBackground } from "../activity/activity.service";
import { linkSigner } from "../attachments/signed-links";
import { mailerOf } from "../mail/mailer";
import { staffToNotify } from "../notifications/notifications.repository";
import type { FavouriteSelection, FavouriteVisitor, VisitorFavourites } from "../../api/favourites";
import { spend } from "./favourite-limits";
import { newVisitorKey, visitorKeyHash, visitorKeyHashes, visitorKeys } from "./visitor-cookie";
import { selectionMail } from "./selection-mail";
import {
  favouritesLimitOf,
  favouritesOf,
  findListedVisitor,
  findVisitor,
  insertVisitor,
  isSent,
  listVisitors,
  markSubmitted,
  picksOf,
  projectExists,
  putFavourite,
  removeFavourite,
  updateVisitorContact,
  type VisitorRow,
} from "./favourites.repository";
import { recordWebhookEvent } from "../webhooks/outbox";

export const VISITOR_REQUIRED = "Give your name and e-mail first";
export const NOTHING_CHOSEN = "Choose at least one photo first";
export const limitMessage = (limit: number) => `You can choose up to ${limit} photos`;

/** The studio's 'Favourites' card follows `favourites` changes of its project (ids: the project's). */
function announce(ctx: AppContext, projectId: number): void {
  ctx.events.resourceChanged({ resource: "favourites", type: "updated", ids: [projectId] });
}

interface Opened {
  link: DeliveryLink;
  visitor: VisitorRow | undefined;
}

/**
 * Every favourites route's gate, in the photos' own order: 404 for an unknown link, 410 past its
 * expiry, 429 past the link and address's budget, 401 without the passcode's cookie. Then the
 * visitor the request's cookie names on this very link, if any.
 */
async function open(ctx: AppContext, req: Request, token: string): Promise<Opened> {
  const link = await openLink(ctx, token);
  await spend(ctx, "requests", link.token, req.ip);
  await requirePasscodeCookie(ctx, req, link);
  const visitor = await findVisitor(ctx.db, link.projectId, link.zipPath, visitorKeyHashes(req));
  return { link, visitor };
}

async function openAsVisitor(ctx: AppContext, req: Request, token: string) {
  const opened = await open(ctx, req, token);
  if (!opened.visitor) throw new ForbiddenError(VISITOR_REQUIRED);
  return { link: opened.link, visitor: opened.visitor };
}

/**
 * The visitor's own list, named by the photos' positions on the page; and the key to set again in
 * the visitor's cookie, so it lives as long as the link does now (its expiry may have moved).
 */
export async function visitorFavourites(
  ctx: AppContext,
  req: Request,
  token: string,
): Promise<{ list: VisitorFavourites; renew?: { link: DeliveryLink; key: string } }> {
  const { link, visitor } = await open(ctx, req, token);
  const limit = await favouritesLimitOf(ctx.db, link.projectId);
  if (!visitor) return { list: { limit, visitor: null, sent: false, favourites: [] } };
  const key = visitorKeys(req).find((k) => visitorKeyHash(k) === visitor.keyHash);
  const [rows, photos] = await Promise.all([favouritesOf(ctx.db, visitor.id), deliveryCache(ctx).photos(link)]);
  const comments = new Map(rows.map((r) => [r.attachmentId, r.comment]));
  const favourites: VisitorFavourites["favourites"] = [];
  photos.forEach((photo, i) => {
    if (!comments.has(photo.id)) return;
    const comment = comments.get(photo.id) ?? null;
    favourites.push({ n: i + 1, name: photo.originalName, ratio: aspectRatio(photo) ?? null, comment });
  });
  const list = { limit, visitor: { name: visitor.name, email: visitor.email }, sent: isSent(visitor), favourites };
  return { list, renew: key ? { link, key } : undefined };
}

/**
 * Who is choosing: a new visitor gets a new key (for the cookie the router sets); one the cookie
 * already names only changes their name or e-mail.
 */
export async function saveVisitor(
  ctx: AppContext,
  req: Request,
  token: string,
  contact: { name: string; email: string },
): Promise<{ link: DeliveryLink; key?: string; visitor: { name: string; email: string } }> {
  const { link, visitor } = await open(ctx, req, token);
  if (visitor) {
    await updateVisitorContact(ctx.db, visitor.id, contact);
    announce(ctx, link.projectId);
    return { link, visitor: contact };
  }
  await spend(ctx, "visitors", link.token, req.ip);
  const key = newVisitorKey();
  await insertVisitor(ctx.db, {
    projectId: link.projectId,
    keyHash: visitorKeyHash(key),
    zipPath: link.zipPath,
    ...contact,
    at: nowIso(),
  });
  announce(ctx, link.projectId);
  return { link, key, visitor: contact };
}

export interface ListState {
  count: number;
  sent: boolean;
}

/** Puts the n-th photo on the visitor's list (or changes its comment); 409 past the project's limit. */
export async function favouriteAt(
  ctx: AppContext,
  req: Request,
  token: string,
  n: string,
  comment: string | null | undefined,
): Promise<ListState & { n: number; comment: string | null }> {
  const { link, visitor } = await openAsVisitor(ctx, req, token);
  const photo = await photoAt(ctx, link, n);
  const limit = await favouritesLimitOf(ctx.db, link.projectId);
  const outcome = await putFavourite(ctx.db, {
    visitorId: visitor.id,
    attachmentId: photo.id,
    comment,
    limit,
    at: nowIso(),
  });
  if (!outcome.done && outcome.gone) throw new NotFoundError(PHOTO_NOT_FOUND);
  if (!outcome.done) throw new ConflictError(limitMessage(limit ?? 0));
  if (outcome.changed) announce(ctx, link.projectId);
  return {
    n: Number(n),
    comment: outcome.comment,
    count: outcome.count,
    sent: !outcome.changed && isSent(visitor),
  };
}

/** Takes the n-th photo off the visitor's list (nothing happens if it was not on it). */
export async function unfavouriteAt(ctx: AppContext, req: Request, token: string, n: string): Promise<ListState> {
  const { link, visitor } = await openAsVisitor(ctx, req, token);
  const photo = await photoAt(ctx, link, n);
  const { count, changed } = await removeFavourite(ctx.db, visitor.id, photo.id, nowIso());
  if (changed) announce(ctx, link.projectId);
  return { count, sent: !changed && isSent(visitor) };
}

/** 'Send my selection': marks the list sent and mails the project's staff behind the answer. */
export async function submitSelection(ctx: AppContext, req: Request, token: string): Promise<ListState> {
  const { link, visitor } = await openAsVisitor(ctx, req, token);
  await spend(ctx, "submits", link.token, req.ip);
  const picks = await picksOf(ctx.db, visitor.id);
  if (picks.length === 0) throw new ConflictError(NOTHING_CHOSEN);
  await markSubmitted(ctx.db, visitor.id, nowIso());
  await recordWebhookEvent(ctx.db, "favourites.submitted", { projectId: link.projectId, visitorId: visitor.id });
  announce(ctx, link.projectId);
  void inBackground(ctx, "a selection mail", async () => {
    const mail = selectionMail({
      projectId: link.projectId,
      projectName: link.projectName,
      visitor,
      picks,
      publicUrl: ctx.config.publicUrl,
    });
    for (const staff of await staffToNotify(ctx.db, link.projectId)) {
      await mailerOf(ctx)
        .send({ to: staff.email, replyTo: visitor.email, ...mail })
        .catch((err: unknown) =>
          ctx.logger.warn({ err, projectId: link.projectId, to: staff.email }, "a selection e-mail could not be sent"),
        );
    }
  });
  return { count: picks.length, sent: true };
}

/** The studio's side: every visitor of the project's delivery page, the latest change first. */
export async function favouriteVisitors(ctx: AppContext, projectId: number): Promise<FavouriteVisitor[]> {
  if (!(await projectExists(ctx.reads, projectId))) throw new NotFoundError("Project not found");
  return listVisitors(ctx.reads, projectId);
}

/** One visitor's list with their comments, in the delivery's order, each with a signed thumbnail. */
export async function favouriteSelection(
  ctx: AppContext,
  projectId: number,
  visitorId: number,
): Promise<FavouriteSelection> {
  if (!(await projectExists(ctx.reads, projectId))) throw new NotFoundError("Project not found");
  const visitor = await findListedVisitor(ctx.reads, projectId, visitorId);
  if (!visitor) throw new NotFoundError("Selection not found");
  const [picks, links] = await Promise.all([picksOf(ctx.reads, visitorId), linkSigner(ctx.db)]);
  const urls = links.urlsOf(picks.map((p) => p.attachmentId));
  return { ...visitor, picks: picks.map((p, i) => ({ ...p, thumbnailUrl: urls[i].thumbnail })) };
}
