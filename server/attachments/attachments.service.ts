import type { Attachment } from "../../api/types";
import type { AppContext } from "../context";
import { nowIso, type Db } from "../db/database";
import { ConflictError, HttpError, NotFoundError, type FieldErrors } from "../http/errors";
import type { ListQuery } from "../http/list-query";
import {
  placeImage,
  prepareImage,
  removeStoredImages,
  type PreparedImage,
  type StoredImage,
} from "../storage/image-files";
import { removeQuietly } from "../storage/paths";
import { assertProjectEditable, isLocked, PROJECT_IS_PUBLISHED } from "../projects/project-rules";
import * as repo from "./attachments.repository";
import { safeFileName } from "./file-names";
import { withLinks } from "./page-links";
import { bytesOf, type SentPage } from "../http/page-cache";
import { linkSigner, type LinkKind } from "./signed-links";
import { appMetrics } from "../ops/metrics";
import { renditionQueue } from "./renditions.service";
import { photoOrderColumns } from "./photo-order";

export const ATTACHMENT_NOT_FOUND = "Attachment not found";

/** A received file: where it is now, the name it was sent with, and its SHA-256 if already known. */
export interface IncomingFile {
  tempFile: string;
  originalName: string;
  size: number;
  checksum?: string;
}

function present(record: repo.AttachmentRecord, urls: Record<LinkKind, string>): Attachment {
  const { storageKey: _storageKey, thumbnailKey: _thumbnailKey, previewKey: _previewKey, ...fields } = record;
  const { view, download, thumbnail, preview } = urls;
  return { ...fields, viewUrl: view, downloadUrl: download, thumbnailUrl: thumbnail, previewUrl: preview };
}

async function presentAll(ctx: AppContext, records: repo.AttachmentRecord[]) {
  const urls = (await linkSigner(ctx.db)).urlsOf(records.map((r) => r.id));
  return records.map((r, i) => present(r, urls[i]));
}

/** What the list endpoint may filter and sort by (the router parses the query with it). */
export { attachmentListSpec } from "./attachments.repository";
export type { AttachmentRecord } from "./attachments.repository";

/** The stored record behind an attachment's files (names on disk, type, etag). */
export async function getAttachmentRecord(ctx: AppContext, id: number): Promise<repo.AttachmentRecord> {
  const record = await repo.findAttachment(ctx.db, id);
  if (!record) throw new NotFoundError(ATTACHMENT_NOT_FOUND);
  return record;
}

/**
 * A page of the list as its JSON body: the rows as the database joined them, each with its four
 * signed links added. A project's photos asked for without a sort come in the project's photo order.
 */
export async function listAttachments(ctx: AppContext, list: ListQuery, sortGiven = true): Promise<SentPage> {
  const projectFilter = list.filters.find((f) => f.column === "project_id" && f.operator === "eq");
  if (!sortGiven && projectFilter && projectFilter.values.length === 1) {
    const order = await repo.projectPhotoOrder(ctx.reads, Number(projectFilter.values[0]));
    if (order) list = { ...list, sort: photoOrderColumns(order) };
  }
  return linkedPage(ctx, ctx.reads, list);
}

async function linkedPage(ctx: AppContext, db: Db, list: ListQuery): Promise<SentPage> {
  const [{ body, total }, links] = await Promise.all([repo.listAttachments(db, list), linkSigner(ctx.db)]);
  return { body: withLinks(bytesOf(body), links), total };
}

/**
 * How many attachments a project's record holds: the first ones in the project's photo order.
 * The rest are paged from GET /api/attachments?projectId= (docs/api.md), so a project of 10,000
 * photos is not a 6 MB record.
 */
export const PROJECT_RECORD_ATTACHMENTS = 100;

/**
 * A project's first attachments (PROJECT_RECORD_ATTACHMENTS) as a JSON array with their links, as
 * bytes: the page of `GET /api/attachments?projectId=` that starts the list.
 */
export async function firstProjectAttachments(ctx: AppContext, projectId: number): Promise<Buffer> {
  const order = await repo.projectPhotoOrder(ctx.db, projectId);
  const first: ListQuery = {
    range: { offset: 0, limit: PROJECT_RECORD_ATTACHMENTS },
    sort: order ? photoOrderColumns(order) : [{ column: "id", order: "asc" }],
    filters: [{ column: "project_id", operator: "eq", values: [projectId] }],
  };
  return (await linkedPage(ctx, ctx.db, first)).body;
}

export async function getAttachment(ctx: AppContext, id: number) {
  const record = await repo.findAttachment(ctx.db, id);
  if (!record) throw new NotFoundError(ATTACHMENT_NOT_FOUND);
  return present(record, (await linkSigner(ctx.db)).urls(record.id));
}

async function removeThumbnailFiles(prepared: PreparedImage[]) {
  await removeQuietly(...prepared.flatMap((p) => (p.thumbnailFile ? [p.thumbnailFile] : [])));
}

/** Checks every file before any is kept, naming each bad one, so a batch is stored whole or not at all. */
async function prepareAll(files: IncomingFile[], maxDecodeBytes: number): Promise<PreparedImage[]> {
  const prepared: PreparedImage[] = [];
  const failures: Array<{ index: number; file: IncomingFile; error: HttpError }> = [];
  for (const [index, file] of files.entries()) {
    try {
      prepared.push(await prepareImage(file.tempFile, maxDecodeBytes, file.checksum));
    } catch (err) {
      if (!(err instanceof HttpError)) throw err;
      failures.push({ index, file, error: err });
    }
  }
  if (failures.length === 0) return prepared;
  await removeThumbnailFiles(prepared);
  const [first] = failures;
  if (files.length === 1) throw first.error;
  const errors: FieldErrors = {};
  for (const f of failures) errors[`files[${f.index}]`] = `${f.file.originalName}: ${f.error.message}`;
  throw new HttpError(first.error.statusCode, first.error.message, errors);
}

/**
 * Stores uploaded images in a project: all are checked first, then moved into place and
 * recorded in one transaction. On any failure no row is written and no file is kept. Thumbnails
 * of JPEGs proven whole without a decode are rendered afterwards, by the rendition queue, as is every photo's preview.
 */
export async function uploadAttachments(ctx: AppContext, projectId: number, files: IncomingFile[]) {
  const prepared = await prepareAll(files, ctx.config.maxDecodeBytes);
  const stored: StoredImage[] = [];
  let ids: number[];
  try {
    for (const image of prepared) stored.push(await placeImage(ctx.config, projectId, image));
    ids = await ctx.db.transaction(async (trx) => {
      // The router refused a locked project before the body was read; checked again here because
      // publishing may have started while the files arrived.
      await assertProjectEditable(trx, projectId);
      const now = nowIso();
      return repo.insertAttachments(
        trx,
        projectId,
        files.map((f, i) => ({
          originalName: safeFileName(f.originalName, stored[i].mimeType, i + 1),
          image: stored[i],
        })),
        now,
      );
    });
  } catch (err) {
    await removeStoredImages(ctx.config, stored);
    await removeThumbnailFiles(prepared);
    throw err;
  }
  const renditions = renditionQueue(ctx);
  renditions.add(
    "thumbnail",
    ids.filter((_id, i) => stored[i].thumbnailKey === null),
  );
  renditions.add("preview", ids);
  appMetrics(ctx).uploadsAccepted(stored);
  ctx.events.resourceChanged({ resource: "attachments", type: "created", ids });
  ctx.events.resourceChanged({ resource: "projects", type: "updated", ids: [projectId] });
  return presentAll(ctx, await repo.findAttachments(ctx.db, ids));
}

export async function renameAttachment(ctx: AppContext, id: number, originalName: string) {
  const record = await ctx.db.transaction(async (trx) => {
    const found = await repo.findAttachment(trx, id);
    if (!found) throw new NotFoundError(ATTACHMENT_NOT_FOUND);
    await assertProjectEditable(trx, found.projectId);
    await repo.renameAttachment(trx, id, safeFileName(originalName, found.mimeType, id), nowIso());
    return found;
  });
  ctx.events.resourceChanged({ resource: "attachments", type: "updated", ids: [id] });
  ctx.events.resourceChanged({ resource: "projects", type: "updated", ids: [record.projectId] });
  return getAttachment(ctx, id);
}

/**
 * Deletes attachments all together or not at all: an unknown id gives 404 and a published
 * project 409, with nothing deleted. Files go only after the rows are gone for good.
 */
export async function deleteAttachments(ctx: AppContext, ids: number[], { listMissing = true } = {}) {
  const unique = [...new Set(ids)];
  const removed = await ctx.db.transaction(async (trx) => {
    const found = await repo.findAttachments(trx, unique);
    if (found.length !== unique.length) {
      if (!listMissing) throw new NotFoundError(ATTACHMENT_NOT_FOUND);
      const known = new Set(found.map((r) => r.id));
      const missing = unique.filter((id) => !known.has(id));
      throw new HttpError(404, ATTACHMENT_NOT_FOUND, { ids: `Unknown attachment ids: ${missing.join(", ")}` });
    }
    const statuses = await repo.projectPublishStatuses(trx, [...new Set(found.map((r) => r.projectId))]);
    if (found.some((r) => isLocked(statuses.get(r.projectId)))) throw new ConflictError(PROJECT_IS_PUBLISHED);
    await repo.deleteAttachments(trx, unique);
    return found;
  });
  await afterDeletion(ctx, removed, unique);
}

export const SELECTION_CHANGED = "The project's attachments changed since they were selected; select them again";

// Statements stay well under the databases' bound-parameter limits (sqlite: 32,766).
const IDS_PER_STATEMENT = 1000;

/**
 * Deletes every attachment of a project except `exceptIds`, in one transaction, however many
 * there are; only if they are exactly `count` (what the user confirmed), else 409 and nothing is
 * deleted. A missing project gives 404, a published one 409.
 */
export async function deleteProjectAttachments(
  ctx: AppContext,
  projectId: number,
  { exceptIds, count }: { exceptIds: number[]; count: number },
) {
  const removed = await ctx.db.transaction(async (trx) => {
    await assertProjectEditable(trx, projectId);
    const kept = new Set(exceptIds);
    const found = (await repo.attachmentsOfProject(trx, projectId)).filter((a) => !kept.has(a.id));
    if (found.length !== count) throw new ConflictError(SELECTION_CHANGED);
    // By id, so that a photo uploaded meanwhile is never deleted without its file.
    for (let i = 0; i < found.length; i += IDS_PER_STATEMENT)
      await repo.deleteAttachments(
        trx,
        found.slice(i, i + IDS_PER_STATEMENT).map((a) => a.id),
      );
    return found;
  });
  await afterDeletion(
    ctx,
    removed,
    removed.map((r) => r.id),
  );
}

async function afterDeletion(ctx: AppContext, removed: repo.AttachmentRecord[], ids: number[]) {
  await removeStoredImages(ctx.config, removed);
  ctx.events.resourceChanged({ resource: "attachments", type: "deleted", ids });
  ctx.events.resourceChanged({
    resource: "projects",
    type: "updated",
    ids: [...new Set(removed.map((r) => r.projectId))],
  });
}

export function deleteAttachment(ctx: AppContext, id: number) {
  return deleteAttachments(ctx, [id], { listMissing: false });
}
