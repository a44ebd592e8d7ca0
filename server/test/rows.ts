import crypto from "node:crypto";
import type { AppContext } from "../context";
import { nowIso } from "../db/database";
import { newPublishedZipName } from "../storage/paths";

/**
 * Test arrangement written straight to the tables, for states the API cannot reach on its own.
 * Ids come back through RETURNING, which both sqlite and PostgreSQL answer as rows.
 */
export async function insertClientRow(ctx: AppContext, name: string, createdAt = nowIso()): Promise<number> {
  const [row] = await ctx.db("clients").insert({ name, created_at: createdAt, updated_at: createdAt }, ["id"]);
  return row.id;
}

export async function insertContactRow(ctx: AppContext, clientId: number, name: string): Promise<number> {
  const now = nowIso();
  const [row] = await ctx
    .db("contacts")
    .insert({ client_id: clientId, name, created_at: now, updated_at: now }, ["id"]);
  return row.id;
}

export async function insertProjectRow(
  ctx: AppContext,
  values: {
    name?: string;
    clientId?: number | null;
    createdAt?: string;
    publishStatus?: string;
    publishedZipPath?: string | null;
  } = {},
): Promise<number> {
  const at = values.createdAt ?? nowIso();
  const [row] = await ctx.db("projects").insert(
    {
      name: values.name ?? "Wedding",
      client_id: values.clientId ?? null,
      publish_status: values.publishStatus ?? "draft",
      published_at: values.publishStatus === "published" ? at : null,
      published_zip_path: values.publishedZipPath ?? null,
      created_at: at,
      updated_at: at,
    },
    ["id"],
  );
  return row.id;
}

/**
 * Marks a project published without building its ZIP (the photo routes of its delivery page need
 * none); answers the delivery token, which is the ZIP's name.
 */
export async function markPublishedRow(ctx: AppContext, projectId: number): Promise<string> {
  const zipName = newPublishedZipName();
  await ctx
    .db("projects")
    .where({ id: projectId })
    .update({ publish_status: "published", published_zip_path: `published/${zipName}`, published_at: nowIso() });
  return zipName.replace(/\.zip$/, "");
}

interface AttachmentValues {
  size: number;
  storageKey?: string;
  thumbnailKey?: string | null;
  originalName?: string;
  checksum?: string;
  /** ISO 8601; now when not given. */
  createdAt?: string;
}

/** An attachments row's columns, for inserting one or many in a statement. */
export function attachmentRow(projectId: number, values: AttachmentValues) {
  const at = values.createdAt ?? nowIso();
  return {
    project_id: projectId,
    original_name: values.originalName ?? "photo.jpg",
    storage_key: values.storageKey ?? `${projectId}/${crypto.randomUUID()}.jpg`,
    thumbnail_key: values.thumbnailKey ?? null,
    mime_type: "image/jpeg",
    size: values.size,
    checksum: values.checksum ?? "0".repeat(64),
    created_at: at,
    updated_at: at,
  };
}

/** An attachment row only; the file on disk, if any, is the caller's to write. */
export async function insertAttachmentRow(
  ctx: AppContext,
  projectId: number,
  values: AttachmentValues,
): Promise<number> {
  const [row] = await ctx.db("attachments").insert(attachmentRow(projectId, values), ["id"]);
  return row.id;
}
