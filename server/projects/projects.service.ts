import type { AppContext } from "../context";
import { nowIso } from "../db/database";
import { ConflictError, NotFoundError, ValidationError } from "../http/errors";
import type { ListQuery } from "../http/list-query";
import { withFields } from "../http/page-cache";
import { StaleRecordError, versionMatches, versionedOf, type Edit, type VersionedRecord } from "../http/record-version";
import { requireClient } from "../clients/clients.service";
import { firstProjectAttachments } from "../attachments/attachments.service";
import { removePublishedZips } from "../storage/published-zips";
import { storesOf } from "../storage/stores";
import type { CreateProjectInput, UpdateProjectInput } from "./projects.schema";
import { PROJECT_IS_PUBLISHED, PROJECT_NOT_FOUND } from "./project-rules";
import * as repo from "./projects.repository";
import { recordWebhookEvent } from "../webhooks/outbox";

/** What the list endpoint may filter and sort by (the router parses the query with it). */
export { projectListSpec } from "./projects.repository";

export const COVER_NOT_IN_PROJECT = "The cover must be one of the project's photos";

/** A client's projectCount changes with its projects: lists showing it refresh live too. */
function announceClientCounts(ctx: AppContext, ...clientIds: Array<number | null | undefined>) {
  const ids = [...new Set(clientIds.filter((id): id is number => id != null))];
  ctx.events.resourceChanged({ resource: "clients", type: "updated", ids });
}

export function listProjects(ctx: AppContext, list: ListQuery) {
  return repo.listProjects(ctx.reads, list);
}

/**
 * A project's record as JSON bytes: its fields, then `attachments`, the first ones with their links
 * (attachments.service.ts), as the database joined them; neither is decoded and written again.
 */
export async function getProject(ctx: AppContext, id: number): Promise<VersionedRecord> {
  const [project, attachments] = await Promise.all([
    repo.findProjectText(ctx.db, id),
    firstProjectAttachments(ctx, id),
  ]);
  if (project === undefined) throw new NotFoundError(PROJECT_NOT_FOUND);
  return { body: withFields(project.text, { attachments }), version: project.version };
}

export async function createProject(ctx: AppContext, input: CreateProjectInput, by: string) {
  const values = {
    name: input.name,
    description: input.description ?? null,
    clientId: input.clientId ?? null,
    photoOrder: input.photoOrder,
  };
  const id = await ctx.db.transaction(async (trx) => {
    await requireClient(trx, values.clientId);
    const created = await repo.insertProject(trx, values, nowIso(), by);
    await recordWebhookEvent(trx, "project.created", { projectId: created });
    return created;
  });
  ctx.events.resourceChanged({ resource: "projects", type: "created", ids: [id] });
  announceClientCounts(ctx, values.clientId);
  return versionedOf((await repo.findProject(ctx.db, id))!);
}

/**
 * A published or publishing project is frozen: its ZIP must keep matching what the page shows. The
 * row stays locked from its read to the write, so the If-Match check holds until the write.
 */
export async function updateProject(ctx: AppContext, id: number, input: UpdateProjectInput, edit: Edit) {
  const previousClientId = await ctx.db.transaction(async (trx) => {
    const state = await repo.findProjectState(trx, id);
    if (!state) throw new NotFoundError(PROJECT_NOT_FOUND);
    if (!versionMatches(edit.condition, Number(state.version))) throw new StaleRecordError();
    await requireClient(trx, input.clientId);
    if (!(await repo.updateUnpublishedProject(trx, id, input, nowIso(), edit)))
      throw new ConflictError(PROJECT_IS_PUBLISHED);
    return state.client_id;
  });
  ctx.events.resourceChanged({ resource: "projects", type: "updated", ids: [id] });
  if (input.clientId !== undefined && input.clientId !== previousClientId)
    announceClientCounts(ctx, previousClientId, input.clientId);
  return versionedOf((await repo.findProject(ctx.db, id))!);
}

/**
 * Chooses the photo across the top of the delivery page, published or not (it changes no file the
 * ZIP holds); null goes back to the first photo. A photo of another project is refused.
 */
export async function setCover(ctx: AppContext, id: number, attachmentId: number | null) {
  if (!(await repo.setCoverAttachment(ctx.db, id, attachmentId))) {
    if (!(await repo.findProject(ctx.db, id))) throw new NotFoundError(PROJECT_NOT_FOUND);
    throw new ValidationError(COVER_NOT_IN_PROJECT, { attachmentId: COVER_NOT_IN_PROJECT });
  }
  ctx.events.resourceChanged({ resource: "projects", type: "updated", ids: [id] });
  return (await repo.findProject(ctx.db, id))!;
}

/**
 * Deletes the rows in one transaction, then the files: a file is removed only once no row
 * points at it, and a failure to remove one leaves an orphan file rather than a broken row.
 */
export async function deleteProject(ctx: AppContext, id: number) {
  const removed = await ctx.db.transaction(async (trx) => {
    const state = await repo.findProjectState(trx, id);
    if (!state) throw new NotFoundError(PROJECT_NOT_FOUND);
    const attachments = await repo.attachmentFilesOf(trx, id);
    if (!(await repo.deleteProjectUnlessPublishing(trx, id))) throw new ConflictError(PROJECT_IS_PUBLISHED);
    return { zipPath: state.published_zip_path, attachments, clientId: state.client_id };
  });
  await removeProjectFiles(ctx, id, removed).catch((err) =>
    ctx.logger.warn({ err, projectId: id }, "could not remove a deleted project's files"),
  );
  ctx.events.resourceChanged({ resource: "projects", type: "deleted", ids: [id] });
  ctx.events.resourceChanged({ resource: "attachments", type: "deleted", ids: removed.attachments.map((a) => a.id) });
  announceClientCounts(ctx, removed.clientId);
}

async function removeProjectFiles(
  ctx: AppContext,
  id: number,
  removed: { zipPath: string | null; attachments: Array<{ storage_key: string; thumbnail_key: string | null }> },
) {
  const { config } = ctx;
  // Every attachment and rendition of the project lives under its own prefix.
  await Promise.all([
    storesOf(config).uploads.removePrefix(`${id}/`),
    removed.zipPath ? removePublishedZips(config, removed.zipPath) : undefined,
  ]);
}
