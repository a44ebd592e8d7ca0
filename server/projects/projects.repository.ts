import type { Db } from "../db/database";
import { isPostgres, lockedForUpdate } from "../db/transactions";
import type { Project, PublishStatus } from "../../api/types";
import type { ListQuery, ListSpec } from "../http/list-query";
import { listPageBody } from "../db/list-pages";
import { jsonSql, oncePerDialect } from "../db/json-select";
import { readRows } from "../db/prepared-reads";
import { updatedByJson } from "../db/edited-by";
import { editColumns, type Edit } from "../http/record-version";
import { firstPhotoIdSql, type PhotoOrder } from "../attachments/photo-order";

export interface ProjectValues {
  name: string;
  description: string | null;
  clientId: number | null;
  photoOrder?: PhotoOrder;
}

export const projectListSpec: ListSpec = {
  sortable: {
    id: "p.id",
    name: "p.name",
    createdAt: "p.created_at",
    updatedAt: "p.updated_at",
    publishedAt: "p.published_at",
    attachmentCount: "p.attachment_count",
    totalFileSize: "p.total_file_size",
    clientName: "c.name",
  },
  nullable: ["publishedAt", "clientName"],
  filterable: {
    id: { column: "p.id", type: "int" },
    clientId: { column: "p.client_id", type: "int" },
    publishStatus: { column: "p.publish_status", type: "text" },
  },
  searchColumn: "p.name",
  searchIndex: { table: "projects_search", idColumn: "p.id" },
  suffixIndex: {
    table: "project_name_suffixes",
    longest: 32,
    columns: { "p.id": "project_id", "p.created_at": "created_at" },
  },
  followsId: { "p.created_at": "projects.created_at_disorder" },
  defaultSort: [{ column: "p.id", order: "asc" }],
};

const FROM_PROJECTS = "projects p LEFT JOIN clients c ON c.id = p.client_id";

/**
 * A project as the API shows it (api/types.ts Project), built by the database as JSON text: the
 * one description of that shape, used by lists and single records alike. A stored ZIP path is
 * `published/<name>.zip`: the links use the name after its one slash (downloadUrlFor below,
 * for other callers, says the same).
 */
const projectColumn = oncePerDialect((db: Db): string => {
  const json = jsonSql(db);
  const zipName = `substr(p.published_zip_path, ${isPostgres(db) ? "strpos" : "instr"}(p.published_zip_path, '/') + 1)`;
  const published = "p.publish_status = 'published' AND p.published_zip_path IS NOT NULL";
  return json.column(
    {
      id: json.number("p.id"),
      name: "p.name",
      description: "p.description",
      clientId: json.number("p.client_id"),
      client: json.objectWhen("p.client_id IS NOT NULL AND c.name IS NOT NULL", {
        id: json.number("p.client_id"),
        name: "c.name",
      }),
      photoOrder: "p.photo_order",
      publishStatus: "p.publish_status",
      publishedAt: json.iso("p.published_at"),
      publishedZipPath: "p.published_zip_path",
      // A view-only gallery's ZIP link answers 404: the web app offers no 'Download ZIP' for it.
      downloadUrl: `CASE WHEN ${published} AND p.delivery_allow_downloads THEN '/published/' || ${zipName} END`,
      publishError: "CASE WHEN p.publish_status = 'failed' THEN p.publish_error END",
      deliveryUrl: `CASE WHEN ${published} THEN '/d/' || CASE WHEN substr(${zipName}, length(${zipName}) - 3) = '.zip'
        THEN substr(${zipName}, 1, length(${zipName}) - 4) ELSE ${zipName} END END`,
      delivery: {
        expiresAt: json.iso("p.delivery_expires_at"),
        hasPasscode: json.bool("p.delivery_passcode_hash IS NOT NULL AND p.delivery_passcode_hash <> ''"),
        views: json.number("p.delivery_views"),
        downloads: json.number("p.delivery_downloads"),
        lastDownloadAt: json.iso("p.delivery_last_download_at"),
        allowDownloads: json.bool("p.delivery_allow_downloads"),
        offerWebSize: json.bool("p.delivery_offer_web_size"),
        favouritesLimit: json.number("p.favourites_limit"),
        language: "p.language",
      },
      // The chosen photo (a foreign key: null again once it is deleted), else the first in the project's order.
      coverAttachmentId: json.number(`COALESCE(p.cover_attachment_id, ${firstPhotoIdSql("p")})`),
      // Kept on the row by triggers on attachments (migration add_projects_attachment_totals).
      attachmentCount: json.number("p.attachment_count"),
      totalFileSize: json.number("p.total_file_size"),
      createdAt: json.iso("p.created_at"),
      updatedAt: json.iso("p.updated_at"),
      // Counted up by edits through the API (its fields, its delivery settings), not by counters or publishing.
      version: json.number("p.version"),
      updatedBy: updatedByJson(json, "p.updated_by"),
    },
    "project",
  );
});

/** `/published/<name>.zip` for a stored `published/<name>.zip`, only while the project is published. */
export function downloadUrlFor(status: PublishStatus, zipPath: string | null): string | null {
  if (status !== "published" || !zipPath) return null;
  return `/published/${zipPath.slice(zipPath.lastIndexOf("/") + 1)}`;
}

/** A page of the list as its JSON body, and the total. */
export function listProjects(db: Db, list: ListQuery): Promise<{ body: Buffer | string; total: number }> {
  return listPageBody(
    db,
    list,
    projectListSpec,
    {
      table: "projects",
      from: "projects p",
      joined: FROM_PROJECTS,
      columns: projectColumn(db),
      idColumn: "p.id",
      countedBy: { "p.client_id": { table: "clients", column: "project_count" } },
    },
    "project",
  );
}

/** Projects as the API writes them, each its JSON text, and its version. */
async function projectTextsWhere(db: Db, where: string, value: number): Promise<{ text: string; version: number }[]> {
  const rows = await readRows<{ project: string; version: number | string }>(db, {
    text: `SELECT ${projectColumn(db)}, p.version FROM ${FROM_PROJECTS} WHERE ${where} ORDER BY p.id`,
    values: [value],
  });
  return rows.map((row) => ({ text: row.project, version: Number(row.version) }));
}

async function projectsWhere(db: Db, where: string, value: number): Promise<Project[]> {
  return (await projectTextsWhere(db, where, value)).map(({ text }) => JSON.parse(text) as Project);
}

/** A client's projects, each its JSON text as the database built it. */
export async function projectTextsOfClient(db: Db, clientId: number): Promise<string[]> {
  return (await projectTextsWhere(db, "p.client_id = ?", clientId)).map(({ text }) => text);
}

export async function findProject(db: Db, id: number): Promise<Project | undefined> {
  return (await projectsWhere(db, "p.id = ?", id))[0];
}

/** A project as the API writes it, its JSON text as the database built it, and its version. */
export async function findProjectText(db: Db, id: number): Promise<{ text: string; version: number } | undefined> {
  return (await projectTextsWhere(db, "p.id = ?", id))[0];
}

/**
 * The stored state a change is decided on: its publish status and the files it owns. In a
 * transaction the row stays locked until it ends, so a publish claim cannot slip in between.
 */
export async function findProjectState(db: Db, id: number) {
  return lockedForUpdate(db, db("projects").where({ id })).first<
    | {
        publish_status: PublishStatus;
        published_zip_path: string | null;
        client_id: number | null;
        version: number | string;
      }
    | undefined
  >("publish_status", "published_zip_path", "client_id", "version");
}

function toRow(values: Partial<ProjectValues>) {
  const row: Record<string, unknown> = {};
  if (values.name !== undefined) row.name = values.name;
  if (values.description !== undefined) row.description = values.description;
  if (values.clientId !== undefined) row.client_id = values.clientId;
  if (values.photoOrder !== undefined) row.photo_order = values.photoOrder;
  return row;
}

export async function insertProject(db: Db, values: ProjectValues, now: string, by: string): Promise<number> {
  const [row] = await db("projects").insert(
    { ...toRow(values), publish_status: "draft", created_at: now, updated_at: now, updated_by: by },
    ["id"],
  );
  return typeof row === "object" ? row.id : row;
}

export const LOCKED_STATUSES: readonly PublishStatus[] = ["published", "publishing"];

/**
 * Updates a project unless it is published or publishing; false when nothing matched. The caller
 * has checked the edit's version on the row it locked (updateProject).
 */
export async function updateUnpublishedProject(
  db: Db,
  id: number,
  values: Partial<ProjectValues>,
  now: string,
  edit: Edit,
): Promise<boolean> {
  const changed = await db("projects")
    .where({ id })
    .whereNotIn("publish_status", LOCKED_STATUSES)
    .update({ ...toRow(values), updated_at: now, ...editColumns(db, edit) });
  return changed > 0;
}

export async function attachmentFilesOf(db: Db, projectId: number) {
  return db("attachments")
    .where({ project_id: projectId })
    .select<Array<{ id: number; storage_key: string; thumbnail_key: string | null }>>(
      "id",
      "storage_key",
      "thumbnail_key",
    );
}

/** Deletes a project unless it is publishing (its attachments go with it by foreign key); false when nothing matched. */
export async function deleteProjectUnlessPublishing(db: Db, id: number): Promise<boolean> {
  return (await db("projects").where({ id }).whereNot("publish_status", "publishing").delete()) > 0;
}

/**
 * Points the project at one of its own photos for its cover, or back at the first (null); false
 * when the project does not exist or the photo is not one of its own.
 */
export async function setCoverAttachment(db: Db, projectId: number, attachmentId: number | null): Promise<boolean> {
  const query = db("projects").where({ id: projectId });
  if (attachmentId !== null)
    query.whereExists(db("attachments").where({ id: attachmentId, project_id: projectId }).select(db.raw("1")));
  return (await query.update({ cover_attachment_id: attachmentId })) > 0;
}
