import crypto from "node:crypto";
import type { Db } from "../db/database";
import { nowIso } from "../db/database";
import { editColumns, whereVersion, type Edit } from "../http/record-version";
import { photoOrderColumns, photoOrderOf, type PhotoOrder } from "../attachments/photo-order";

/** A published project as its delivery page sees it: nothing about clients or staff. */
export interface DeliveryLink {
  projectId: number;
  projectName: string;
  /** The ZIP's random name without `.zip`. */
  token: string;
  zipPath: string;
  expiresAt: string | null;
  /** `expiresAt` in ms since the epoch, or Infinity. */
  endsAt: number;
  passcodeHash: string | null;
  /** The project's photo count and bytes as its row keeps them: what its photo list must add up to. */
  photoCount: number;
  photoBytes: number;
  /** The photo staff chose for the cover, or null (the first photo). */
  coverAttachmentId: number | null;
  /** Off: view-only, no ZIP and no photo download answers for this link. */
  allowDownloads: boolean;
  /** The previews offered for download too (per photo, and the web-size ZIP when it was built). */
  offerWebSize: boolean;
  /** The order of the photos (the ZIP's, chosen before publishing: fixed while published). */
  photoOrder: PhotoOrder;
  /** The gallery's language; null: the studio's. */
  language: string | null;
}

/** One photo of a delivery, in the ZIP's order. */
export interface DeliveryPhoto {
  id: number;
  originalName: string;
  mimeType: string;
  size: number;
  storageKey: string;
  thumbnailKey: string | null;
  previewKey: string | null;
  checksum: string;
  /** As recorded at upload (EXIF orientation applied); null when unknown. */
  width: number | null;
  height: number | null;
}

export const zipPathFor = (token: string) => `published/${token}.zip`;

/** The published project whose ZIP is exactly `published/<token>.zip`, if any. */
export async function findLinkByToken(db: Db, token: string): Promise<DeliveryLink | undefined> {
  const row = await db("projects")
    .where({ published_zip_path: zipPathFor(token), publish_status: "published" })
    .first(
      "id",
      "name",
      "published_zip_path",
      "delivery_expires_at",
      "delivery_passcode_hash",
      "attachment_count",
      "total_file_size",
      "cover_attachment_id",
      "delivery_allow_downloads",
      "delivery_offer_web_size",
      "photo_order",
      "language",
    );
  // Compared again byte for byte (and in constant time), whatever the database's collation.
  const expected = Buffer.from(zipPathFor(token));
  const stored = Buffer.from(String(row?.published_zip_path ?? ""));
  if (!row || stored.length !== expected.length || !crypto.timingSafeEqual(stored, expected)) return undefined;
  return {
    projectId: row.id,
    projectName: row.name,
    token,
    zipPath: row.published_zip_path,
    expiresAt: row.delivery_expires_at ?? null,
    endsAt: row.delivery_expires_at ? new Date(row.delivery_expires_at).getTime() : Infinity,
    passcodeHash: row.delivery_passcode_hash ?? null,
    photoCount: Number(row.attachment_count),
    photoBytes: Number(row.total_file_size),
    coverAttachmentId: row.cover_attachment_id == null ? null : Number(row.cover_attachment_id),
    allowDownloads: Boolean(row.delivery_allow_downloads),
    offerWebSize: Boolean(row.delivery_offer_web_size),
    photoOrder: photoOrderOf(row.photo_order),
    language: row.language ?? null,
  };
}

/**
 * Whether `published/<token>.zip` is the link a project keeps while it is not published
 * (unpublished to be changed, or publishing again): its page says "being updated", and nothing
 * behind it is served.
 */
export async function isBeingUpdated(db: Db, token: string): Promise<{ language: string | null } | undefined> {
  const row = await db("projects")
    .where({ published_zip_path: zipPathFor(token) })
    .whereNot({ publish_status: "published" })
    .first("published_zip_path", "language");
  // Compared again byte for byte, whatever the database's collation.
  return row?.published_zip_path === zipPathFor(token) ? { language: row.language ?? null } : undefined;
}

const photoColumns = [
  "id",
  "original_name",
  "mime_type",
  "size",
  "storage_key",
  "thumbnail_key",
  "preview_key",
  "checksum",
  "width",
  "height",
];
/** A project's photos in its photo order (the ZIP's), read from that order's index. */
const inZipOrder = (db: Db, projectId: number, order: PhotoOrder) =>
  db("attachments").where({ project_id: projectId }).orderBy(photoOrderColumns(order));

function toPhoto(r: Record<string, unknown>): DeliveryPhoto {
  return {
    id: Number(r.id),
    originalName: r.original_name as string,
    mimeType: r.mime_type as string,
    size: Number(r.size),
    storageKey: r.storage_key as string,
    thumbnailKey: (r.thumbnail_key as string | null) ?? null,
    previewKey: (r.preview_key as string | null) ?? null,
    checksum: r.checksum as string,
    width: r.width == null ? null : Number(r.width),
    height: r.height == null ? null : Number(r.height),
  };
}

/** A project's photos in its photo order (the link's). */
export async function photosOf(db: Db, projectId: number, order: PhotoOrder): Promise<DeliveryPhoto[]> {
  return (await inZipOrder(db, projectId, order).select(photoColumns)).map(toPhoto);
}

export interface DeliverySettingsValues {
  expiresAt?: string | null;
  passcodeHash?: string | null;
  allowDownloads?: boolean;
  offerWebSize?: boolean;
  favouritesLimit?: number | null;
  language?: string | null;
}

/**
 * Changes only the settings given, and counts up the project's version, when its version is one
 * the edit may apply to; false when nothing matched (no such project, or another version).
 */
export async function updateDeliverySettings(
  db: Db,
  projectId: number,
  values: DeliverySettingsValues,
  edit: Edit,
): Promise<boolean> {
  const row: Record<string, unknown> = {};
  if (values.expiresAt !== undefined) row.delivery_expires_at = values.expiresAt;
  if (values.passcodeHash !== undefined) row.delivery_passcode_hash = values.passcodeHash;
  if (values.allowDownloads !== undefined) row.delivery_allow_downloads = values.allowDownloads;
  if (values.offerWebSize !== undefined) row.delivery_offer_web_size = values.offerWebSize;
  if (values.favouritesLimit !== undefined) row.favourites_limit = values.favouritesLimit;
  if (values.language !== undefined) row.language = values.language;
  const query = whereVersion(db("projects").where({ id: projectId }), edit.condition);
  return (await query.update({ ...row, ...editColumns(db, edit) })) > 0;
}

/**
 * Points a published project at a new ZIP name and runs `rename` (moving the file) inside the
 * same transaction: if the move fails the row keeps its old name, and the move happens only
 * while the row still names the old file. Answers the old path, or undefined when the project
 * is not published.
 */
export async function swapZipPath(
  db: Db,
  projectId: number,
  newZipPath: string,
  rename: (oldZipPath: string) => Promise<void>,
): Promise<string | undefined> {
  return db.transaction(async (trx) => {
    const row = await trx("projects").where({ id: projectId, publish_status: "published" }).first("published_zip_path");
    if (!row?.published_zip_path) return undefined;
    const changed = await trx("projects")
      .where({ id: projectId, publish_status: "published", published_zip_path: row.published_zip_path })
      .update({ published_zip_path: newZipPath });
    if (changed !== 1) return undefined;
    await rename(row.published_zip_path);
    return row.published_zip_path as string;
  });
}

export async function countView(db: Db, projectId: number): Promise<void> {
  await db("projects").where({ id: projectId }).increment("delivery_views", 1);
}

export async function countDownload(db: Db, projectId: number): Promise<void> {
  await db("projects")
    .where({ id: projectId })
    .update({
      delivery_downloads: db.raw("delivery_downloads + 1"),
      delivery_last_download_at: nowIso(),
    });
}
