import { toIso, type Db } from "../db/database";
import { lockedForUpdate } from "../db/transactions";
import type { Knex } from "knex";
import type { ListQuery, ListSpec } from "../http/list-query";
import { listPageBody } from "../db/list-pages";
import { jsonSql, oncePerDialect } from "../db/json-select";
import type { Rendition, StoredImage } from "../storage/image-files";
import { orderKeys, photoOrderOf, type PhotoOrder } from "./photo-order";

/** An attachment as the API shows it, before signed links are added, plus where its files are. */
export interface AttachmentRecord {
  id: number;
  projectId: number;
  originalName: string;
  mimeType: string;
  size: number;
  width: number | null;
  height: number | null;
  checksum: string;
  createdAt: string;
  updatedAt: string;
  storageKey: string;
  thumbnailKey: string | null;
  previewKey: string | null;
}

/** The database or a transaction on it. */
export type Queryable = Db | Knex.Transaction;

export const attachmentListSpec: ListSpec = {
  sortable: {
    id: "id",
    originalName: "original_name",
    size: "size",
    mimeType: "mime_type",
    createdAt: "created_at",
    updatedAt: "updated_at",
  },
  filterable: {
    id: { column: "id", type: "int" },
    projectId: { column: "project_id", type: "int" },
    mimeType: { column: "mime_type", type: "text" },
    originalName: { column: "original_name", type: "text" },
  },
  searchColumn: "original_name",
  searchIndex: { table: "attachments_search", idColumn: "id" },
  defaultSort: [
    { column: "created_at", order: "asc" },
    { column: "id", order: "asc" },
  ],
};

function toRecord(row: Record<string, unknown>): AttachmentRecord {
  return {
    id: Number(row.id),
    projectId: Number(row.project_id),
    originalName: String(row.original_name),
    mimeType: String(row.mime_type),
    size: Number(row.size),
    width: row.width === null ? null : Number(row.width),
    height: row.height === null ? null : Number(row.height),
    checksum: String(row.checksum),
    createdAt: toIso(row.created_at)!,
    updatedAt: toIso(row.updated_at)!,
    storageKey: String(row.storage_key),
    thumbnailKey: row.thumbnail_key ? String(row.thumbnail_key) : null,
    previewKey: row.preview_key ? String(row.preview_key) : null,
  };
}

/**
 * An attachment's fields as JSON text built by the database (see server/db/json-select.ts); no
 * nested object has an `id`, since page-links.ts finds a page's rows by `{"id":`.
 */
const attachmentColumn = oncePerDialect((db) => {
  const json = jsonSql(db);
  return json.column(
    {
      id: json.number("id"),
      projectId: json.number("project_id"),
      originalName: "original_name",
      mimeType: "mime_type",
      size: json.number("size"),
      width: json.number("width"),
      height: json.number("height"),
      checksum: "checksum",
      createdAt: json.iso("created_at"),
      updatedAt: json.iso("updated_at"),
    },
    "json",
  );
});

/** A page of attachments as one JSON array the database joins, without their links (page-links.ts adds them), and the total. */
export function listAttachments(db: Db, list: ListQuery): Promise<{ body: Buffer | string; total: number }> {
  return listPageBody(
    db,
    list,
    attachmentListSpec,
    {
      table: "attachments",
      from: "attachments",
      columns: attachmentColumn(db),
      idColumn: "id",
      countedBy: { project_id: { table: "projects", column: "attachment_count" } },
    },
    "json",
  );
}

export async function findAttachment(db: Queryable, id: number): Promise<AttachmentRecord | undefined> {
  const row = await db("attachments").where({ id }).first();
  return row ? toRecord(row) : undefined;
}

/** Locked until a surrounding transaction ends, so a thumbnail recorded meanwhile is seen by a delete. */
export async function findAttachments(db: Queryable, ids: number[]): Promise<AttachmentRecord[]> {
  const rows = await lockedForUpdate(db, db("attachments").whereIn("id", ids).orderBy("id"));
  return rows.map(toRecord);
}

/** Every attachment of a project, in upload order; locked until a surrounding transaction ends. */
export async function attachmentsOfProject(db: Queryable, projectId: number): Promise<AttachmentRecord[]> {
  const rows = await lockedForUpdate(db, db("attachments").where({ project_id: projectId }).orderBy("id"));
  return rows.map(toRecord);
}

/** Publish statuses of the given projects, by project id; locked until a surrounding transaction ends. */
export async function projectPublishStatuses(db: Queryable, projectIds: number[]): Promise<Map<number, string>> {
  const rows = await lockedForUpdate(db, db("projects").whereIn("id", projectIds).orderBy("id")).select(
    "id",
    "publish_status",
  );
  return new Map(rows.map((r) => [Number(r.id), String(r.publish_status)]));
}

export async function insertAttachments(
  trx: Knex.Transaction,
  projectId: number,
  files: Array<{ originalName: string; image: StoredImage }>,
  now: string,
): Promise<number[]> {
  const ids: number[] = [];
  // One insert per row: portable way to learn every new id (sqlite returns only the last of a batch).
  for (const { originalName, image } of files) {
    const [row] = await trx("attachments")
      .insert({
        project_id: projectId,
        original_name: originalName,
        storage_key: image.storageKey,
        thumbnail_key: image.thumbnailKey,
        mime_type: image.mimeType,
        size: image.size,
        width: image.width,
        height: image.height,
        checksum: image.checksum,
        captured_at: image.capturedAt,
        captured_at_checked: true,
        ...orderKeys(originalName, image.capturedAt),
        created_at: now,
        updated_at: now,
      })
      .returning("id");
    ids.push(Number(typeof row === "object" ? row.id : row));
  }
  return ids;
}

/** Renames a photo and its order keys; its row is locked first, as the capture-time backfill locks it. */
export async function renameAttachment(trx: Queryable, id: number, originalName: string, now: string): Promise<void> {
  const row = await lockedForUpdate(trx, trx("attachments").where({ id })).first("captured_at");
  const keys = orderKeys(originalName, row?.captured_at ? String(row.captured_at) : null);
  await trx("attachments")
    .where({ id })
    .update({ original_name: originalName, ...keys, updated_at: now });
}

/** A project's photo order, or undefined when there is no such project. */
export async function projectPhotoOrder(db: Queryable, projectId: number): Promise<PhotoOrder | undefined> {
  const row = await db("projects").where({ id: projectId }).first("photo_order");
  return row ? photoOrderOf(row.photo_order) : undefined;
}

/** Up to `limit` photos whose EXIF was never read (stored before capture times were kept), after `afterId`. */
export async function uncheckedCaptureTimes(
  db: Queryable,
  afterId: number,
  limit: number,
): Promise<Array<{ id: number; storageKey: string; size: number }>> {
  const rows = await db("attachments")
    .where({ captured_at_checked: false })
    .where("id", ">", afterId)
    .orderBy("id")
    .limit(limit)
    .select("id", "storage_key", "size");
  return rows.map((r) => ({ id: Number(r.id), storageKey: String(r.storage_key), size: Number(r.size) }));
}

/** Records a photo's capture time (null: none found) and its order keys, read with its current name. */
export async function setCaptureTime(db: Db, id: number, capturedAt: string | null): Promise<void> {
  await db.transaction(async (trx) => {
    const row = await lockedForUpdate(trx, trx("attachments").where({ id })).first("original_name");
    if (!row) return;
    const name = String(row.original_name);
    await trx("attachments")
      .where({ id })
      .update({ captured_at: capturedAt, captured_at_checked: true, ...orderKeys(name, capturedAt) });
  });
}

export async function deleteAttachments(trx: Queryable, ids: number[]): Promise<void> {
  await trx("attachments").whereIn("id", ids).delete();
}

/** The column naming each rendition's file. */
const KEY_COLUMNS: Record<Rendition, string> = { thumbnail: "thumbnail_key", preview: "preview_key" };

/** Up to `limit` attachments stored without this rendition yet, after `afterId`, oldest first (read from a partial index). */
export async function idsWithout(
  db: Queryable,
  rendition: Rendition,
  afterId: number,
  limit: number,
): Promise<number[]> {
  const rows = await db("attachments")
    .whereNull(KEY_COLUMNS[rendition])
    .where("id", ">", afterId)
    .orderBy("id")
    .limit(limit)
    .select("id");
  return rows.map((r) => Number(r.id));
}

/** Records a rendered rendition, unless the attachment is gone or another render got there first. */
export async function setRenditionKey(db: Queryable, id: number, rendition: Rendition, key: string): Promise<boolean> {
  const column = KEY_COLUMNS[rendition];
  const updated = await db("attachments")
    .where({ id })
    .whereNull(column)
    .update({ [column]: key });
  return updated > 0;
}
