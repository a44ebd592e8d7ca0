import type { Knex } from "knex";
import type { Db } from "../db/database";
import { toIso } from "../db/database";
import { lockedForUpdate } from "../db/transactions";
import type { Project, PublishStatus } from "../../api/types";
import { listWithAggregates, type ListQuery, type ListSpec } from "../http/list-query";

interface ProjectRow {
  id: number;
  name: string;
  description: string | null;
  client_id: number | null;
  client_name: string | null;
  publish_status: PublishStatus;
  published_at: string | null;
  published_zip_path: string | null;
  publish_error: string | null;
  delivery_expires_at: string | null;
  delivery_passcode_hash: string | null;
  delivery_views: number | string;
  delivery_downloads: number | string;
  delivery_last_download_at: string | null;
  created_at: string;
  updated_at: string;
  attachment_count: number | string;
  total_file_size: number | string;
}

export interface ProjectValues {
  name: string;
  description: string | null;
  clientId: number | null;
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
  defaultSort: [{ column: "p.id", order: "asc" }],
};

function fromProjects(db: Db): Knex.QueryBuilder {
  return db("projects as p").leftJoin("clients as c", "c.id", "p.client_id");
}

function selectProjects(db: Db): Knex.QueryBuilder {
  return fromProjects(db).select(
    "p.id",
    "p.name",
    "p.description",
    "p.client_id",
    "c.name as client_name",
    "p.publish_status",
    "p.published_at",
    "p.published_zip_path",
    "p.publish_error",
    "p.delivery_expires_at",
    "p.delivery_passcode_hash",
    "p.delivery_views",
    "p.delivery_downloads",
    "p.delivery_last_download_at",
    "p.created_at",
    "p.updated_at",
    // Kept on the row by triggers on attachments (migration add_projects_attachment_totals).
    "p.attachment_count",
    "p.total_file_size",
  );
}

/** `/d/<token>` for a stored `published/<token>.zip`, only while the project is published. */
export function deliveryUrlFor(status: PublishStatus, zipPath: string | null): string | null {
  if (status !== "published" || !zipPath) return null;
  return `/d/${zipPath.slice(zipPath.lastIndexOf("/") + 1).replace(/\.zip$/, "")}`;
}

/** `/published/<name>.zip` for a stored `published/<name>.zip`, only while the project is published. */
export function downloadUrlFor(status: PublishStatus, zipPath: string | null): string | null {
  if (status !== "published" || !zipPath) return null;
  return `/published/${zipPath.slice(zipPath.lastIndexOf("/") + 1)}`;
}

export function toProject(row: ProjectRow): Project {
  return {
    id: row.id,
    name: row.name,
    description: row.description ?? null,
    clientId: row.client_id ?? null,
    client: row.client_id != null && row.client_name != null ? { id: row.client_id, name: row.client_name } : null,
    publishStatus: row.publish_status,
    publishedAt: toIso(row.published_at),
    publishedZipPath: row.published_zip_path ?? null,
    downloadUrl: downloadUrlFor(row.publish_status, row.published_zip_path),
    publishError: row.publish_status === "failed" ? (row.publish_error ?? null) : null,
    deliveryUrl: deliveryUrlFor(row.publish_status, row.published_zip_path),
    delivery: {
      expiresAt: toIso(row.delivery_expires_at),
      hasPasscode: Boolean(row.delivery_passcode_hash),
      views: Number(row.delivery_views ?? 0),
      downloads: Number(row.delivery_downloads ?? 0),
      lastDownloadAt: toIso(row.delivery_last_download_at),
    },
    attachmentCount: Number(row.attachment_count),
    totalFileSize: Number(row.total_file_size),
    createdAt: toIso(row.created_at)!,
    updatedAt: toIso(row.updated_at)!,
  };
}

export async function listProjects(db: Db, list: ListQuery): Promise<{ rows: Project[]; total: number }> {
  const { rows, total } = await listWithAggregates<ProjectRow>(db, list, projectListSpec, {
    table: () => db("projects as p"),
    base: () => fromProjects(db),
    select: () => selectProjects(db),
    idColumn: "p.id",
    aggregates: {},
  });
  return { rows: rows.map(toProject), total };
}

export async function projectsOfClient(db: Db, clientId: number): Promise<Project[]> {
  const rows: ProjectRow[] = await selectProjects(db).where("p.client_id", clientId).orderBy("p.id");
  return rows.map(toProject);
}

export async function findProject(db: Db, id: number): Promise<Project | undefined> {
  const row: ProjectRow | undefined = await selectProjects(db).where("p.id", id).first();
  return row && toProject(row);
}

/**
 * The stored state a change is decided on: its publish status and the files it owns. In a
 * transaction the row stays locked until it ends, so a publish claim cannot slip in between.
 */
export async function findProjectState(db: Db, id: number) {
  return lockedForUpdate(db, db("projects").where({ id })).first<
    { publish_status: PublishStatus; published_zip_path: string | null; client_id: number | null } | undefined
  >("publish_status", "published_zip_path", "client_id");
}

function toRow(values: Partial<ProjectValues>) {
  const row: Record<string, unknown> = {};
  if (values.name !== undefined) row.name = values.name;
  if (values.description !== undefined) row.description = values.description;
  if (values.clientId !== undefined) row.client_id = values.clientId;
  return row;
}

export async function insertProject(db: Db, values: ProjectValues, now: string): Promise<number> {
  const [row] = await db("projects").insert(
    { ...toRow(values), publish_status: "draft", created_at: now, updated_at: now },
    ["id"],
  );
  return typeof row === "object" ? row.id : row;
}

export const LOCKED_STATUSES: readonly PublishStatus[] = ["published", "publishing"];

/** Updates a project unless it is published or publishing; false when nothing matched. */
export async function updateUnpublishedProject(
  db: Db,
  id: number,
  values: Partial<ProjectValues>,
  now: string,
): Promise<boolean> {
  const changed = await db("projects")
    .where({ id })
    .whereNotIn("publish_status", LOCKED_STATUSES)
    .update({ ...toRow(values), updated_at: now });
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
