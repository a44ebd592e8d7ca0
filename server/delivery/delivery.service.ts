import type { IncomingMessage } from "node:http";
import type { AppContext } from "../context";
import { ConflictError, HttpError, NotFoundError, UnauthorizedError } from "../http/errors";
import { hashPassword, verifyPassword } from "../auth/passwords";
import { findProject } from "../projects/projects.repository";
import { newPublishedZipName } from "../storage/paths";
import { publishedZipKey, webSizeZipKey } from "../storage/published-zips";
import { storesOf } from "../storage/stores";
import type { ObjectStore } from "../storage/object-store";
import type { Project } from "../../api/types";
import { StaleRecordError, type Edit } from "../http/record-version";
import {
  countView,
  isBeingUpdated,
  swapZipPath,
  updateDeliverySettings,
  type DeliveryLink,
  type DeliveryPhoto,
} from "./delivery.repository";
import { deliveryCache } from "./delivery-cache";
import { hasValidCookie } from "./passcode-cookie";
import type { PasscodeAttempts } from "./passcode-attempts";
import { noteView } from "../activity/delivery-hooks";
import { BeingUpdatedError } from "./being-updated.service";

/** A token is a published ZIP's random name: 128 bits or more, URL-safe. */
export const DELIVERY_TOKEN = /^[A-Za-z0-9_-]{22,64}$/;
const EXPIRED_MESSAGE = "This delivery has expired";
const WRONG_PASSCODE = "Wrong passcode";

export class GoneError extends HttpError {
  /** `language`: the expired link's project's, so its page speaks as its gallery did; null: the studio's. */
  constructor(
    message = EXPIRED_MESSAGE,
    readonly language: string | null = null,
  ) {
    super(410, message);
  }
}

function projectChanged(ctx: AppContext, id: number) {
  ctx.events.resourceChanged({ resource: "projects", type: "updated", ids: [id] });
}

async function projectOrNotFound(ctx: AppContext, id: number): Promise<Project> {
  const project = await findProject(ctx.db, id);
  if (!project) throw new NotFoundError("Project not found");
  return project;
}

export const isExpired = (link: Pick<DeliveryLink, "endsAt">, now = Date.now()) => link.endsAt <= now;

/**
 * The published project behind a token: 404 for anything unknown or malformed, 503 for the link of
 * a project being updated (unpublished, or publishing again), 410 past its expiry.
 */
export async function openLink(ctx: AppContext, token: string): Promise<DeliveryLink> {
  if (!DELIVERY_TOKEN.test(token)) throw new NotFoundError();
  const link = await deliveryCache(ctx).link(token);
  if (!link) {
    const updating = await isBeingUpdated(ctx.db, token);
    throw updating ? new BeingUpdatedError(updating.language) : new NotFoundError();
  }
  if (isExpired(link)) throw new GoneError(EXPIRED_MESSAGE, link.language);
  return link;
}

export async function mayOpen(ctx: AppContext, req: IncomingMessage, link: DeliveryLink): Promise<boolean> {
  return !link.passcodeHash || (await hasValidCookie(ctx.db, req, link));
}

/** Nothing of a passcode-protected link is served without the cookie its passcode earns. */
export async function requirePasscodeCookie(ctx: AppContext, req: IncomingMessage, link: DeliveryLink): Promise<void> {
  if (!(await mayOpen(ctx, req, link))) throw new UnauthorizedError("Passcode required");
}

/**
 * Checks a passcode against the link's. The try is counted before it is checked (429 past the
 * link's budget, unchecked), and a right one gives its count back: only wrong ones spend it.
 */
export async function checkPasscode(link: DeliveryLink, passcode: unknown, attempts: PasscodeAttempts): Promise<void> {
  if (!link.passcodeHash) return;
  await attempts.count(link.token);
  const given = typeof passcode === "string" ? passcode : "";
  if (given.length > 0 && given.length <= 256 && (await verifyPassword(given, link.passcodeHash))) {
    await attempts.giveBack(link.token);
    return;
  }
  throw new UnauthorizedError(WRONG_PASSCODE);
}

export type { DeliveryLink, DeliveryPhoto };

/** The ZIP's size and time, read once per link (a published ZIP is never rewritten); undefined if it is gone. */
export async function zipStatOf(ctx: AppContext, link: DeliveryLink): Promise<ZipStat | undefined> {
  const kept = zipStats.get(link);
  if (kept) return kept;
  const stat = await storesOf(ctx.config)
    .published.stat(publishedZipKey(link.zipPath))
    .catch(() => undefined);
  if (!stat) return undefined;
  const zip = { size: stat.size, mtime: stat.mtime };
  zipStats.set(link, zip);
  return zip;
}

export interface ZipStat {
  size: number;
  mtime: Date;
}
const zipStats = new WeakMap<DeliveryLink, ZipStat>();

/** What the page lists: the photos in the ZIP's order and the ZIP's size (404 if its file is gone). */
export async function galleryOf(
  ctx: AppContext,
  link: DeliveryLink,
): Promise<{ photos: DeliveryPhoto[]; zipSize: number }> {
  const zip = await zipStatOf(ctx, link);
  if (!zip) throw new NotFoundError();
  return { photos: await deliveryCache(ctx).photos(link), zipSize: zip.size };
}

/** The n-th photo (1-based, the ZIP's order): the page names photos by position, never by id. */
/** The answer for a photo position a link does not have, or whose photo is gone. */
export const PHOTO_NOT_FOUND = "Photo not found";

export async function photoAt(ctx: AppContext, link: DeliveryLink, raw: string): Promise<DeliveryPhoto> {
  const index = /^[1-9]\d{0,5}$/.test(raw) ? Number(raw) - 1 : -1;
  const photo = index >= 0 ? (await deliveryCache(ctx).photos(link))[index] : undefined;
  if (!photo) throw new NotFoundError(PHOTO_NOT_FOUND);
  return photo;
}

export async function recordView(ctx: AppContext, link: DeliveryLink): Promise<void> {
  await Promise.all([countView(ctx.db, link.projectId), noteView(ctx, link.projectId)]);
  projectChanged(ctx, link.projectId);
}

export interface DeliverySettingsInput {
  expiresAt?: string | null;
  passcode?: string | null;
  allowDownloads?: boolean;
  offerWebSize?: boolean;
  favouritesLimit?: number | null;
  language?: string | null;
}

export async function updateSettings(
  ctx: AppContext,
  projectId: number,
  input: DeliverySettingsInput,
  edit: Edit,
): Promise<Project> {
  const passcodeHash = typeof input.passcode === "string" ? await hashPassword(input.passcode) : input.passcode;
  const expiresAt =
    input.expiresAt === undefined || input.expiresAt === null
      ? input.expiresAt
      : new Date(input.expiresAt).toISOString();
  const { allowDownloads, offerWebSize, favouritesLimit, language } = input;
  const values = { expiresAt, passcodeHash, allowDownloads, offerWebSize, favouritesLimit, language };
  if (!(await updateDeliverySettings(ctx.db, projectId, values, edit))) {
    await projectOrNotFound(ctx, projectId);
    throw new StaleRecordError();
  }
  projectChanged(ctx, projectId);
  return projectOrNotFound(ctx, projectId);
}

/**
 * A new token: the ZIP is renamed (same bytes, no rebuild; in object storage copied, then the old
 * one removed) in the same step as the row, so the old page, photos and ZIP answer 404 from the
 * moment the change commits.
 */
export async function regenerateLink(ctx: AppContext, projectId: number): Promise<Project> {
  const newZipPath = `published/${newPublishedZipName()}`;
  const published = storesOf(ctx.config).published;
  const moved: Array<{ from: string; to: string }> = [];
  try {
    const old = await swapZipPath(ctx.db, projectId, newZipPath, async (oldZipPath) => {
      const from = publishedZipKey(oldZipPath);
      const to = publishedZipKey(newZipPath);
      await published.rename(from, to);
      moved.push({ from, to });
      await renameWebSizeZip(published, oldZipPath, newZipPath, moved);
    });
    if (!old) {
      await projectOrNotFound(ctx, projectId);
      throw new ConflictError("Project is not published");
    }
  } catch (err) {
    // The row kept its old name (the transaction rolled back): the files go back under it.
    for (const { from, to } of moved)
      await published
        .rename(to, from)
        .catch((e: unknown) => ctx.logger.error({ err: e }, "could not restore a renamed ZIP"));
    throw err;
  }
  projectChanged(ctx, projectId);
  return projectOrNotFound(ctx, projectId);
}

/** The web-size ZIP, when the project has one, follows its ZIP to the new name. */
async function renameWebSizeZip(
  published: ObjectStore,
  oldZipPath: string,
  newZipPath: string,
  moved: Array<{ from: string; to: string }>,
): Promise<void> {
  const from = webSizeZipKey(oldZipPath);
  const to = webSizeZipKey(newZipPath);
  try {
    await published.rename(from, to);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return;
    throw err;
  }
  moved.push({ from, to });
}
