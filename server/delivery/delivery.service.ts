import crypto from "node:crypto";
import fs from "node:fs/promises";
import type { Request, Response } from "express";
import type { AppContext } from "../context";
import { ConflictError, HttpError, NotFoundError, UnauthorizedError } from "../http/errors";
import { sendStoredFile } from "../http/send-file";
import { hashPassword, verifyPassword } from "../auth/passwords";
import { findProject } from "../projects/projects.repository";
import { attachmentDisposition } from "../publish/download-name";
import { newPublishedZipName, publishedZipFile } from "../storage/paths";
import type { Project } from "../../api/types";
import {
  countDownload,
  countView,
  findLinkByToken,
  photoAtPosition,
  photosOf,
  swapZipPath,
  updateDeliverySettings,
  zipPathFor,
  type DeliveryLink,
  type DeliveryPhoto,
} from "./delivery.repository";
import { onDeliveredBytes } from "./delivered-bytes";
import { hasValidCookie } from "./passcode-cookie";
import type { PasscodeAttempts } from "./passcode-attempts";
import { createTransferCoverage, type TransferCoverage } from "./transfer-coverage";
import { noteView, noteZipDownload } from "../activity/delivery-hooks";

/** A token is a published ZIP's random name: 128 bits or more, URL-safe. */
export const DELIVERY_TOKEN = /^[A-Za-z0-9_-]{22,64}$/;
export const EXPIRED_MESSAGE = "This delivery has expired";
export const WRONG_PASSCODE = "Wrong passcode";

export class GoneError extends HttpError {
  constructor(message = EXPIRED_MESSAGE) {
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

export const isExpired = (link: Pick<DeliveryLink, "expiresAt">, now = Date.now()) =>
  link.expiresAt !== null && new Date(link.expiresAt).getTime() <= now;

/** The published project behind a token: 404 for anything unknown, unpublished or malformed; 410 past its expiry. */
export async function openLink(ctx: AppContext, token: string): Promise<DeliveryLink> {
  if (!DELIVERY_TOKEN.test(token)) throw new NotFoundError();
  const link = await findLinkByToken(ctx.db, token);
  const expected = Buffer.from(zipPathFor(token));
  const stored = Buffer.from(link?.zipPath ?? "");
  if (!link || stored.length !== expected.length || !crypto.timingSafeEqual(stored, expected))
    throw new NotFoundError();
  if (isExpired(link)) throw new GoneError();
  return link;
}

export async function mayOpen(ctx: AppContext, req: Request, link: DeliveryLink): Promise<boolean> {
  return !link.passcodeHash || (await hasValidCookie(ctx.db, req, link));
}

/** Nothing of a passcode-protected link is served without the cookie its passcode earns. */
export async function requirePasscodeCookie(ctx: AppContext, req: Request, link: DeliveryLink): Promise<void> {
  if (!(await mayOpen(ctx, req, link))) throw new UnauthorizedError("Passcode required");
}

/** Checks a passcode against the link's; wrong ones count towards the link's limit. */
export async function checkPasscode(link: DeliveryLink, passcode: unknown, attempts: PasscodeAttempts): Promise<void> {
  if (!link.passcodeHash) return;
  await attempts.check(link.token);
  const given = typeof passcode === "string" ? passcode : "";
  if (given.length > 0 && given.length <= 256 && (await verifyPassword(given, link.passcodeHash))) return;
  await attempts.recordFailure(link.token);
  throw new UnauthorizedError(WRONG_PASSCODE);
}

export type { DeliveryLink, DeliveryPhoto };

/** What the page lists: the photos in the ZIP's order and the ZIP's size (404 if its file is gone). */
export async function galleryOf(
  ctx: AppContext,
  link: DeliveryLink,
): Promise<{ photos: DeliveryPhoto[]; zipSize: number }> {
  const zip = await fs.stat(publishedZipFile(ctx.config, link.zipPath)).catch(() => undefined);
  if (!zip) throw new NotFoundError();
  return { photos: await photosOf(ctx.db, link.projectId), zipSize: zip.size };
}

/** The n-th photo (1-based, the ZIP's order): the page names photos by position, never by id. */
export async function photoAt(ctx: AppContext, link: DeliveryLink, raw: string): Promise<DeliveryPhoto> {
  const index = /^[1-9]\d{0,5}$/.test(raw) ? Number(raw) - 1 : -1;
  const photo = index >= 0 ? await photoAtPosition(ctx.db, link.projectId, index) : undefined;
  if (!photo) throw new NotFoundError("Photo not found");
  return photo;
}

export async function recordView(ctx: AppContext, link: DeliveryLink): Promise<void> {
  await Promise.all([countView(ctx.db, link.projectId), noteView(ctx, link.projectId)]);
  projectChanged(ctx, link.projectId);
}

const coverages = new WeakMap<AppContext, TransferCoverage>();
function coverageOf(ctx: AppContext): TransferCoverage {
  let coverage = coverages.get(ctx);
  if (!coverage) coverages.set(ctx, (coverage = createTransferCoverage()));
  return coverage;
}

/**
 * Sends the link's ZIP (Range and conditional requests included) and counts a download when the
 * bytes this downloader has received, over however many responses, make up the whole file.
 */
export async function sendZip(ctx: AppContext, req: Request, res: Response, link: DeliveryLink): Promise<void> {
  res.set({
    "Content-Type": "application/zip",
    "Content-Disposition": attachmentDisposition(link.projectName),
    // The link can end at any moment (expiry, regenerate, unpublish), so caches must ask each time.
    "Cache-Control": "private, no-cache",
    "X-Robots-Tag": "noindex",
  });
  const downloader = `${link.zipPath}|${req.ip ?? ""}|${req.get("user-agent") ?? ""}`;
  onDeliveredBytes(res, (start, end, size) => {
    if (!coverageOf(ctx).record(downloader, size, start, end)) return;
    Promise.all([countDownload(ctx.db, link.projectId), noteZipDownload(ctx, req, link)]).then(
      () => projectChanged(ctx, link.projectId),
      (err: unknown) => ctx.logger.warn({ err, projectId: link.projectId }, "could not count a download"),
    );
  });
  await sendStoredFile(res, publishedZipFile(ctx.config, link.zipPath), { etag: true });
}

export interface DeliverySettingsInput {
  expiresAt?: string | null;
  passcode?: string | null;
}

export async function updateSettings(
  ctx: AppContext,
  projectId: number,
  input: DeliverySettingsInput,
): Promise<Project> {
  const passcodeHash = typeof input.passcode === "string" ? await hashPassword(input.passcode) : input.passcode;
  const expiresAt =
    input.expiresAt === undefined || input.expiresAt === null
      ? input.expiresAt
      : new Date(input.expiresAt).toISOString();
  if (!(await updateDeliverySettings(ctx.db, projectId, { expiresAt, passcodeHash })))
    throw new NotFoundError("Project not found");
  projectChanged(ctx, projectId);
  return projectOrNotFound(ctx, projectId);
}

/**
 * A new token: the ZIP is renamed (same bytes, no rebuild) in the same step as the row, so the old
 * page, photos and ZIP answer 404 from the moment the change commits.
 */
export async function regenerateLink(ctx: AppContext, projectId: number): Promise<Project> {
  const newZipPath = `published/${newPublishedZipName()}`;
  let moved: { from: string; to: string } | undefined;
  try {
    const old = await swapZipPath(ctx.db, projectId, newZipPath, async (oldZipPath) => {
      const from = publishedZipFile(ctx.config, oldZipPath);
      const to = publishedZipFile(ctx.config, newZipPath);
      await fs.rename(from, to);
      moved = { from, to };
    });
    if (!old) {
      await projectOrNotFound(ctx, projectId);
      throw new ConflictError("Project is not published");
    }
  } catch (err) {
    // The row kept its old name (the transaction rolled back): the file goes back under it.
    if (moved)
      await fs
        .rename(moved.to, moved.from)
        .catch((e: unknown) => ctx.logger.error({ err: e }, "could not restore a renamed ZIP"));
    throw err;
  }
  projectChanged(ctx, projectId);
  return projectOrNotFound(ctx, projectId);
}
