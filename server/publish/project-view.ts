import type { Db } from "../db/database";
import { toIso } from "../db/database";

export type PublishStatus = "draft" | "publishing" | "published" | "failed";

/** The contract's Project shape (section 3), as the publish calls answer it. */
export interface ProjectView {
  id: number;
  name: string;
  description: string | null;
  clientId: number | null;
  client: { id: number; name: string } | null;
  publishStatus: PublishStatus;
  publishedAt: string | null;
  publishedZipPath: string | null;
  downloadUrl: string | null;
  attachmentCount: number;
  totalFileSize: number;
  createdAt: string;
  updatedAt: string;
}

interface ProjectViewRow {
  id: number;
  name: string;
  description: string | null;
  client_id: number | null;
  client_name: string | null;
  publish_status: PublishStatus;
  published_at: string | null;
  published_zip_path: string | null;
  attachment_count: number | string;
  total_file_size: number | string | null;
  created_at: string;
  updated_at: string;
}

/** `/published/<name>.zip` for a stored `published/<name>.zip`, only while the project is published. */
export function downloadUrlFor(status: PublishStatus, zipPath: string | null): string | null {
  if (status !== "published" || !zipPath) return null;
  return `/published/${zipPath.split("/").pop()}`;
}

/**
 * Reads one project with its client and attachment totals. Kept here so the publish routes can
 * answer with a project; meant to be unified with the projects repository.
 */
export async function findProjectView(db: Db, id: number): Promise<ProjectView | undefined> {
  const row: ProjectViewRow | undefined = await db("projects as p")
    .leftJoin("clients as c", "c.id", "p.client_id")
    .where("p.id", id)
    .first(
      "p.id",
      "p.name",
      "p.description",
      "p.client_id",
      "c.name as client_name",
      "p.publish_status",
      "p.published_at",
      "p.published_zip_path",
      "p.created_at",
      "p.updated_at",
      db("attachments").count("*").where("project_id", db.ref("p.id")).as("attachment_count"),
      db("attachments").sum("size").where("project_id", db.ref("p.id")).as("total_file_size"),
    );
  if (!row) return undefined;
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    clientId: row.client_id,
    client: row.client_id !== null && row.client_name !== null ? { id: row.client_id, name: row.client_name } : null,
    publishStatus: row.publish_status,
    publishedAt: toIso(row.published_at),
    publishedZipPath: row.published_zip_path,
    downloadUrl: downloadUrlFor(row.publish_status, row.published_zip_path),
    attachmentCount: Number(row.attachment_count),
    totalFileSize: Number(row.total_file_size ?? 0),
    createdAt: toIso(row.created_at)!,
    updatedAt: toIso(row.updated_at)!,
  };
}
